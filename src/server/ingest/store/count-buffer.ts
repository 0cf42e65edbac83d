/**
 * Counter increments summed in memory by key and handed over together about every `flushMs`: the
 * statistics ingest writes beside its batches, not in them (tag-count-buffer.ts,
 * minute-count-buffer.ts). Bounded: past `maxRows` distinct keys a flush is due at once.
 */
export class CountBuffer<Row extends { count: number }> {
  private rows = new Map<string, Row>();
  private lastFlush: number;

  constructor(
    /** The row's identity: rows with the same id are summed. */
    private readonly idOf: (row: Row) => string,
    private readonly flushMs: number,
    private readonly maxRows = 50_000,
    private readonly now: () => number = Date.now,
  ) {
    this.lastFlush = now();
  }

  get size() {
    return this.rows.size;
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
  take(): Row[] {
    const rows = [...this.rows.values()];
    this.rows = new Map();
    this.lastFlush = this.now();
    return rows;
  }

  /** Returns rows whose flush failed, to be retried with the next one. */
  putBack(rows: Row[]) {
    for (const row of rows) this.addRow(row);
  }

  protected addRow(row: Row) {
    const id = this.idOf(row);
    const existing = this.rows.get(id);
    if (existing) existing.count += row.count;
    else this.rows.set(id, { ...row });
  }
}
