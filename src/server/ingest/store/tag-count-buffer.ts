/** One (issue, tag key, tag value) counter increment for issue_tag_counts. */
export interface TagCountRow {
  organization_id: string;
  project_id: string;
  issue_id: string;
  key: string;
  value: string;
  count: number;
}

/**
 * Tag value counts of committed events, summed in memory and added to issue_tag_counts in one
 * statement every `flushMs`. Inside each batch they cost about 3.5 row updates per event, the
 * largest share of the database's work per event; summed over a second they collapse to the
 * distinct (issue, key, value) triples seen, a small fraction of that.
 *
 * The trade-off: these are statistics for the tags breakdown, not events. Events, issue counters
 * and the hourly/daily rollups stay in the events' own transaction; a crash (not a shutdown, which
 * flushes) can lose at most the last `flushMs` of tag counts, and a failed flush is retried.
 */
export class TagCountBuffer {
  private rows = new Map<string, TagCountRow>();
  private lastFlush: number;

  constructor(
    private readonly flushMs: number,
    /** Distinct triples held at most; past this a flush is due at once (bounded memory). */
    private readonly maxRows = 50_000,
    private readonly now: () => number = Date.now,
  ) {
    this.lastFlush = now();
  }

  get size() {
    return this.rows.size;
  }

  add(organizationId: string, projectId: string, issueId: string, tags: Record<string, string>, count = 1) {
    for (const key in tags) this.addRow({ organization_id: organizationId, project_id: projectId, issue_id: issueId, key, value: tags[key], count });
  }

  /** Whether the rows should be written now (time, size, or `force` on shutdown). */
  isDue(force = false) {
    if (this.rows.size === 0) return false;
    return force || this.rows.size >= this.maxRows || this.now() - this.lastFlush >= this.flushMs;
  }

  /** Milliseconds until the next flush is due (for an idle timer). */
  msUntilDue() {
    return Math.max(0, this.flushMs - (this.now() - this.lastFlush));
  }

  /** Hands over every row and empties the buffer. */
  take(): TagCountRow[] {
    const rows = [...this.rows.values()];
    this.rows = new Map();
    this.lastFlush = this.now();
    return rows;
  }

  /** Returns rows whose flush failed, to be retried with the next one. */
  putBack(rows: TagCountRow[]) {
    for (const row of rows) this.addRow(row);
  }

  private addRow(row: TagCountRow) {
    // The key's length makes the id unambiguous whatever characters a key or value holds.
    const id = `${row.issue_id}:${row.key.length}:${row.key}${row.value}`;
    const existing = this.rows.get(id);
    if (existing) existing.count += row.count;
    else this.rows.set(id, { ...row });
  }
}
