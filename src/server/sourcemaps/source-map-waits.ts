import { and, eq, inArray } from "drizzle-orm";
import type { NormalizedOccurrence } from "../../shared/occurrence.types";
import type { Db } from "../db/client";
import { issueFingerprints, occurrences, sourceMapWaits } from "../db/schema/index";
import { groupForIngest } from "../grouping/ingest-grouping";
import { indexedTextOrNull } from "../ingest/store/indexed-text";
import type { PreparedOccurrence } from "../ingest/store/prepared-occurrence";
import type { Logger } from "../logger";
import type { EventSymbolicator } from "./event-symbolicator";

/** Keys this process has recorded lately: a deploy's every event names the same few debug ids. */
const MAX_REMEMBERED = 10_000;

/**
 * Events that came before their source maps, and what happens once the maps arrive. An event
 * grouped on minified frames (`bundle_not_found`) opened or joined an issue; the next event of the
 * same defect, mapped on arrival, has another fingerprint. So the first is remembered per (project,
 * debug id, fingerprint), and when a bundle with the debug id is assembled it is symbolicated again
 * and its mapped fingerprint linked to the minified one's issue (issue_fingerprints, as grouping v2
 * links its other fingerprints): later events join that issue.
 */
export class SourceMapWaits {
  private readonly remembered = new Set<string>();

  constructor(private readonly deps: { db: Db; logger: Logger }) {}

  /** After the event is committed; never fails the request (a lost row costs one link, not an event). */
  record(event: Pick<PreparedOccurrence, "organizationId" | "projectId" | "awaitingMaps">) {
    const waiting = event.awaitingMaps;
    if (!waiting) return;
    const rows = waiting.debugIds
      .filter((debugId) => this.remember(`${event.projectId}:${debugId}:${waiting.fingerprint}`))
      .map((debugId) => ({
        organizationId: event.organizationId,
        projectId: event.projectId,
        debugId,
        fingerprint: waiting.fingerprint,
        eventId: waiting.eventId,
      }));
    if (rows.length === 0) return;
    this.deps.db
      .insert(sourceMapWaits)
      .values(rows)
      .onConflictDoNothing()
      .catch((error: unknown) => this.deps.logger.warn("source map wait not recorded", { projectId: event.projectId, err: error }));
  }

  /**
   * A bundle holding `debugIds` was assembled for the project: links the mapped fingerprint of each
   * waiting event to the issue its minified one went to, unless an issue already has it (events
   * mapped meanwhile opened one: that stays theirs), then forgets the waits. Returns the links made.
   */
  async relink(symbolicator: EventSymbolicator, organizationId: string, projectId: string, debugIds: string[]): Promise<number> {
    if (debugIds.length === 0) return 0;
    const scope = and(eq(sourceMapWaits.organizationId, organizationId), eq(sourceMapWaits.projectId, projectId), inArray(sourceMapWaits.debugId, debugIds));
    const waits = await this.deps.db.select().from(sourceMapWaits).where(scope);
    let linked = 0;
    for (const wait of new Map(waits.map((row) => [row.fingerprint, row])).values()) {
      if (await this.link(symbolicator, wait)) linked += 1;
    }
    await this.deps.db.delete(sourceMapWaits).where(scope);
    return linked;
  }

  private async link(symbolicator: EventSymbolicator, wait: typeof sourceMapWaits.$inferSelect): Promise<boolean> {
    const { db } = this.deps;
    const [event] = await db
      .select({ data: occurrences.data })
      .from(occurrences)
      .where(and(eq(occurrences.organizationId, wait.organizationId), eq(occurrences.projectId, wait.projectId), eq(occurrences.eventId, wait.eventId)))
      .limit(1);
    const [issue] = await db
      .select({ issueId: issueFingerprints.issueId })
      .from(issueFingerprints)
      .where(and(eq(issueFingerprints.projectId, wait.projectId), eq(issueFingerprints.fingerprint, wait.fingerprint)))
      .limit(1);
    if (!event || !issue) return false;
    const stored = event.data as NormalizedOccurrence & { timestamp: string };
    const mapped = await symbolicator.symbolicate({ ...stored, timestamp: new Date(stored.timestamp) }, wait.projectId);
    const grouping = groupForIngest(mapped, { legacy: false });
    if (grouping.fingerprint === wait.fingerprint) return false;
    const inserted = await db
      .insert(issueFingerprints)
      .values({
        organizationId: wait.organizationId,
        projectId: wait.projectId,
        fingerprint: grouping.fingerprint,
        issueId: issue.issueId,
        groupingVersion: grouping.version,
        components: JSON.stringify(grouping.components),
        exceptionType: indexedTextOrNull(grouping.parts?.exceptionType ?? null),
        crashFrame: indexedTextOrNull(grouping.parts?.crashFrame ?? null),
        messageTemplate: grouping.parts?.messageTemplate ?? null,
      })
      .onConflictDoNothing()
      .returning({ fingerprint: issueFingerprints.fingerprint });
    return inserted.length > 0;
  }

  private remember(key: string): boolean {
    if (this.remembered.has(key)) return false;
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
    this.remembered.add(key);
    return true;
  }
}
