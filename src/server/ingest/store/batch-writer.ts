import { setImmediate as nextTurn } from "node:timers/promises";
import type { Logger } from "../../logger";
import { addMinuteCounts, addOutcomes, addTagCounts, commitItems, type CommittedTags, type IssueFact, type StatementRunner } from "./batch-commit";
import { commitIsolating } from "./batch-isolation";
import { isMissingPartition } from "../../retention/current-partitions";
import { isConcurrencyVictim, isDataError, sqlStateOf } from "./database-errors";
import type { PendingOccurrence, PendingOutcome } from "./pending-occurrence";
import { prepareOccurrence, type PreparedOccurrence } from "./prepared-occurrence";
import { QueuedRow, type BatchItem, type RowKind } from "./queued-row";
import { IngestError } from "../http/ingest-error";
import { StorageUnavailableError } from "../http/storage-unavailable";
import { TagCountBuffer, type TagCountRow } from "./tag-count-buffer";
import { MinuteCountBuffer, type MinuteCountRow } from "./minute-count-buffer";
import { FirstSeenReleases } from "./first-seen-releases";
import { countAccepted, countRefused, observeCommit } from "../../metrics/process-metrics";

export interface BatchWriterOptions {
  /** Events per transaction at most. */
  maxBatch: number;
  /**
   * Document bytes per transaction at most (one event always goes, whatever its size): building,
   * sending and — on PGlite, which runs in this thread — storing a batch takes time in proportion
   * to its bytes, and a few hundred 500 KB documents in one statement held the event loop for
   * seconds (issue 31). Default DEFAULT_MAX_BATCH_BYTES.
   */
  maxBatchBytes?: number;
  /**
   * The database runs in this thread (PGlite): each statement holds the event loop while it runs
   * and resolves without an I/O turn, so batch after batch would hold it for their sum. Then each
   * batch's requests are answered and the loop gets a turn before the next batch starts.
   */
  databaseInThread?: boolean;
  /**
   * Creates the week partitions of these days (and today's): called when a batch's row found no
   * partition for its day (retention/current-partitions.ts), before the batch is stored again.
   */
  ensurePartitions?: (days: string[]) => Promise<void>;
  /**
   * Transactions committing at once. PostgreSQL overlaps one batch's commit (fsync) with the
   * next batch's statements; PGlite has a single connection, so 1 there.
   */
  maxInFlight: number;
  /** Events waiting at most before new ones are refused with 503 (backpressure, bounded memory). */
  maxQueue: number;
  /** How often summed tag and per-minute counts are written (see TagCountBuffer, MinuteCountBuffer). */
  tagFlushMs: number;
}

interface Waiter {
  item: BatchItem;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** How one batch's requests are answered once its statements are done. */
interface BatchAnswers {
  stored: Waiter[];
  refused: { waiter: Waiter; error: Error }[];
  committed: CommittedTags[];
  facts: CommittedFacts;
}

/**
 * What ingest tells other domains (alerts): after a batch commits, the issues it created or
 * regressed; after the per-minute counts are written, the projects whose counts grew.
 */
export interface CommittedFacts {
  issueFacts: IssueFact[];
  /** "organizationId projectId" pairs. */
  projects: string[];
}

/** Called after a commit or a counts flush, synchronously and never awaited: a listener only hands the facts on. */
export type CommittedListener = (facts: CommittedFacts) => void;

/**
 * Group commit: requests enqueue their events and wait; one transaction at a time commits
 * everything queued so far. While a commit runs, new arrivals pile up and go together in the
 * next, so throughput grows with load instead of paying one transaction per event.
 */
export class BatchWriter {
  private queue: Waiter[] = [];
  private outcomes: PendingOutcome[] = [];
  private inFlight = 0;
  private idle: (() => void)[] = [];
  private closed = false;
  private readonly tagCounts: TagCountBuffer;
  private readonly minuteCounts: MinuteCountBuffer;
  private countFlushTimer: NodeJS.Timeout | null = null;
  private countFlush: Promise<void> | null = null;
  private readonly firstSeenReleases: FirstSeenReleases;
  /** The alerts hand-off (alerts/alert-hand-off.ts); null where no alerts run. */
  onCommitted: CommittedListener | null = null;

  constructor(
    private readonly db: StatementRunner,
    private readonly logger: Logger,
    private readonly options: BatchWriterOptions = { maxBatch: 1000, maxQueue: 20_000, maxInFlight: 1, tagFlushMs: 1000 },
  ) {
    this.tagCounts = new TagCountBuffer(options.tagFlushMs);
    this.minuteCounts = new MinuteCountBuffer(options.tagFlushMs);
    this.firstSeenReleases = new FirstSeenReleases(logger);
  }

  /**
   * Resolves once the event is committed. Rejects with StorageUnavailableError (503) when the
   * database is unavailable, and with an IngestError (4xx) when this event cannot be stored — its
   * project was deleted, or the database refuses one of its values — while the rest of its batch is.
   */
  write(item: PendingOccurrence): Promise<void> {
    // Prepared now, while an earlier batch commits, rather than when this one is built.
    return this.enqueue(prepareOccurrence(item));
  }

  /** As write, for an event prepared already (ingest/prepare/ready-payload.ts, inline or on a payload worker). */
  writePrepared(event: PreparedOccurrence): Promise<void> {
    return this.enqueue(event);
  }

  /** Another domain's row (see QueuedRow), under the same queue limit; resolves once committed. */
  writeRow<T>(kind: RowKind<T>, row: T): Promise<void> {
    return this.enqueue(new QueuedRow(kind, row));
  }

  private enqueue(item: BatchItem): Promise<void> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Why a new write is refused (503): shutting down, or the queue is full (backpressure). */
  private refusal(): StorageUnavailableError | null {
    if (this.closed) return new StorageUnavailableError("Ingest is shutting down");
    if (this.queue.length < this.options.maxQueue) return null;
    countRefused("unavailable", "queue_full", 1);
    return new StorageUnavailableError("Ingest queue is full", 1);
  }

  /** Outcome counters ride along with the next commit (best effort: they are statistics). */
  record(outcome: PendingOutcome) {
    countRefused(outcome.outcome, outcome.reason, outcome.quantity);
    this.outcomes.push(outcome);
    this.schedule();
  }

  /** Commits what is queued, writes the summed counts, and refuses new writes (SIGTERM). */
  async close() {
    this.closed = true;
    if (this.countFlushTimer) clearTimeout(this.countFlushTimer);
    while (this.inFlight > 0 || this.queue.length > 0 || this.outcomes.length > 0) {
      this.schedule();
      await new Promise<void>((resolve) => this.idle.push(resolve));
    }
    await this.countFlush;
    // One last attempt: if the database is gone these counts go with the process, as on a crash.
    if (this.tagCounts.size > 0 || this.minuteCounts.size > 0) await this.flushCounts();
  }

  private schedule() {
    if (this.inFlight >= this.options.maxInFlight) return;
    if (this.queue.length === 0 && this.outcomes.length === 0) return;
    this.inFlight += 1;
    void this.commitWhileQueued().finally(() => {
      this.inFlight -= 1;
      for (const resolve of this.idle.splice(0)) resolve();
      this.schedule();
    });
  }

  /**
   * One commit slot, committing batch after batch while work is queued. Each next batch is sent
   * to the database before the last batch's requests are answered: answering takes the main
   * thread a while, and the database would otherwise sit idle through it.
   */
  private async commitWhileQueued() {
    // Yield once so requests arriving in the same tick join the first batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    let commit = this.commitNext();
    while (commit) {
      const answer = await commit;
      if (this.options.databaseInThread) {
        answer();
        await nextTurn();
        commit = this.commitNext();
        continue;
      }
      commit = this.commitNext();
      answer();
    }
  }

  /** Takes what is queued and starts committing it; resolves to what answers its requests. */
  private commitNext(): Promise<() => void> | null {
    const waiters = this.queue.splice(0, this.batchLength());
    const outcomes = this.outcomes.splice(0);
    if (waiters.length === 0 && outcomes.length === 0) return null;
    // More work queued than this batch takes: let another transaction start on it now.
    if (this.queue.length > 0) this.schedule();
    return this.commitEach(waiters).then(async (answers) => {
      // Statistics ride along; their failure must not turn stored events into errors.
      if (outcomes.length > 0) await addOutcomes(this.db, outcomes).catch((error: unknown) => this.logger.warn("ingest outcomes lost", { err: error }));
      // Releases named for the first time exist once their events are answered (never throws).
      await this.firstSeenReleases.record(this.db, answers.committed, answers.stored);
      return () => {
        for (const waiter of answers.stored) waiter.resolve();
        for (const { waiter, error } of answers.refused) waiter.reject(error);
        this.countStored(answers.committed);
        countAccepted(answers.committed.length);
        this.handOff(answers.facts);
      };
    });
  }

  /** How many queued items the next batch takes: up to maxBatch, and up to maxBatchBytes of documents (at least one). */
  private batchLength(): number {
    const maxBytes = this.options.maxBatchBytes ?? DEFAULT_MAX_BATCH_BYTES;
    const max = Math.min(this.options.maxBatch, this.queue.length);
    let bytes = 0;
    for (let i = 0; i < max; i++) {
      const { item } = this.queue[i];
      bytes += item instanceof QueuedRow ? 0 : item.document.length;
      if (bytes > maxBytes) return Math.max(1, i);
    }
    return max;
  }

  /**
   * Commits a batch in one statement; if the statement fails because of some event's data, the
   * batch is split until that event fails alone (batch-isolation.ts): it is answered 400 and
   * counted as an `invalid` outcome, and every other event of the batch is stored. An outage is
   * never split: the whole batch answers 503 with Retry-After.
   */
  private async commitEach(waiters: Waiter[]): Promise<BatchAnswers> {
    const answers: BatchAnswers = { stored: [], refused: [], committed: [], facts: { issueFacts: [], projects: [] } };
    const unavailable: Waiter[] = [];
    let outage: unknown = null;
    const started = performance.now();
    const parts = await commitIsolating(waiters, (part) => this.commitWithRetry(part.map((waiter) => waiter.item)), {
      isolable: isDataError,
      // Other domains' rows sort after every project's events.
      groupOf: (waiter) => (waiter.item instanceof QueuedRow ? "~" : waiter.item.projectId),
    });
    observeCommit(waiters.length, performance.now() - started);
    for (const part of parts) {
      if (part.ok) {
        const orphans = new Set(part.result.orphans);
        part.items.forEach((waiter, i) => (orphans.has(i) ? answers.refused.push({ waiter, error: PROJECT_DELETED }) : answers.stored.push(waiter)));
        answers.committed.push(...part.result.stored);
        answers.facts.issueFacts.push(...part.result.issueFacts);
      } else if (part.isolated) {
        const { item } = part.items[0];
        if (item instanceof QueuedRow) this.logger.warn("queued row refused by the database", { sqlState: sqlStateOf(part.error), err: part.error });
        else this.refuseUnstorable(item, part.error);
        answers.refused.push({ waiter: part.items[0], error: UNSTORABLE });
      } else {
        unavailable.push(...part.items);
        outage = part.error;
      }
    }
    if (unavailable.length > 0) {
      this.logger.warn("ingest batch failed", { events: unavailable.length, err: outage });
      countRefused("unavailable", "storage", unavailable.length);
      const failure = new StorageUnavailableError("Storage is unavailable", 5, { cause: outage });
      for (const waiter of unavailable) answers.refused.push({ waiter, error: failure });
    }
    return answers;
  }

  /** The database refused a value of this event that normalising did not catch: logged, and counted as `invalid`. */
  private refuseUnstorable(item: PreparedOccurrence, error: unknown) {
    this.logger.warn("ingest event refused by the database", { projectId: item.projectId, eventKey: item.eventKey, sqlState: sqlStateOf(error), err: error });
    this.record({
      organizationId: item.organizationId,
      projectId: item.projectId,
      outcome: "invalid",
      reason: "unstorable",
      category: "error",
      quantity: 1,
      at: new Date(),
    });
  }

  /** After the commit, off the answer path: a throwing listener must not fail stored events. */
  private handOff(facts: CommittedFacts) {
    if (!this.onCommitted || (facts.issueFacts.length === 0 && facts.projects.length === 0)) return;
    try {
      this.onCommitted(facts);
    } catch (error) {
      this.logger.warn("committed-batch listener failed", { err: error });
    }
  }

  /** Sums the tags and minutes of the events a batch stored, for the counts written beside the batches. */
  private countStored(committed: CommittedTags[]) {
    for (const event of committed) {
      this.tagCounts.add(event.organizationId, event.projectId, event.issueId, event.tags);
      this.minuteCounts.add(event.organizationId, event.projectId, event.issueId, event.minute);
    }
    this.flushCountsIfDue();
    this.armCountFlush();
  }

  /**
   * Writes the summed counts beside the event batches, not in a commit slot: the statements touch
   * only issue_tag_counts and issue_minute_counts, so they neither wait for nor delay any request's
   * answer. One flush at a time; both buffers go together.
   */
  private flushCountsIfDue() {
    if (this.countFlush || this.closed || !(this.tagCounts.isDue() || this.minuteCounts.isDue())) return;
    this.countFlush = this.flushCounts().finally(() => {
      this.countFlush = null;
      this.armCountFlush();
    });
  }

  /** When no further batch comes along to carry them, a timer gets the counts written. */
  private armCountFlush() {
    if ((this.tagCounts.size === 0 && this.minuteCounts.size === 0) || this.countFlushTimer || this.countFlush || this.closed) return;
    this.countFlushTimer = setTimeout(
      () => {
        this.countFlushTimer = null;
        this.flushCountsIfDue();
        this.armCountFlush();
      },
      Math.min(this.tagCounts.msUntilDue(), this.minuteCounts.msUntilDue()) + 1,
    );
    this.countFlushTimer.unref();
  }

  private async flushCounts() {
    await this.flushTags(this.tagCounts.take());
    await this.flushMinutes(this.minuteCounts.take());
  }

  /**
   * Statistics, not events: rows of a failed flush are kept for the next one rather than fail anyone's
   * request — unless the database refuses a row's data, which would fail every later flush of every
   * tenant: that row is isolated (as an event is) and dropped, and the others are written.
   */
  private async flushTags(rows: TagCountRow[]) {
    if (rows.length === 0) return;
    const parts = await commitIsolating(rows, (part) => addTagCounts(this.db, part), { isolable: isDataError });
    for (const part of parts) {
      if (part.ok) continue;
      if (part.isolated) {
        const [row] = part.items;
        this.logger.warn("tag count refused by the database; dropped", {
          projectId: row.project_id,
          issueId: row.issue_id,
          sqlState: sqlStateOf(part.error),
          err: part.error,
        });
        continue;
      }
      this.logger.warn("tag counts flush failed; will retry", { rows: part.items.length, err: part.error });
      this.tagCounts.putBack(part.items);
    }
  }

  /**
   * Per-minute counts hold ids and times only (nothing a client wrote that the database could
   * refuse): a failed flush keeps them for the next. Once written, the projects are handed on for
   * their spike and event-rate checks, which read these rows.
   */
  private async flushMinutes(rows: MinuteCountRow[]) {
    if (rows.length === 0) return;
    try {
      await addMinuteCounts(this.db, rows);
    } catch (error) {
      this.logger.warn("minute counts flush failed; will retry", { rows: rows.length, err: error });
      this.minuteCounts.putBack(rows);
      return;
    }
    const projects = new Set(rows.map((row) => `${row.organization_id} ${row.project_id}`));
    this.handOff({ issueFacts: [], projects: [...projects] });
  }

  /**
   * Concurrent batches lock issue and rollup rows in the same key order, so deadlocks should not
   * happen; if PostgreSQL still picks this transaction as a deadlock or serialization victim,
   * nothing was written and one more attempt is safe.
   */
  private async commitWithRetry(items: BatchItem[]) {
    try {
      return await commitItems(this.db, items);
    } catch (error) {
      if (isMissingPartition(error) && this.options.ensurePartitions) {
        // Not the event's fault: its week's partition is created and the batch stored again.
        const days = items.flatMap((item) => (item instanceof QueuedRow ? [] : [item.minute.slice(0, 10)]));
        await this.options.ensurePartitions([...new Set(days)]);
        return await commitItems(this.db, items);
      }
      if (!isConcurrencyVictim(error)) throw error;
      return await commitItems(this.db, items);
    }
  }
}

/** 1 MiB of documents: ≈ 300 typical events (3–4 KB each), or one or two of the largest. */
export const DEFAULT_MAX_BATCH_BYTES = 1024 * 1024;

/** The event's project was deleted (on this replica or another) after its key was cached. */
const PROJECT_DELETED = new IngestError("auth_invalid", "unknown or revoked key: the project was deleted");
/** The database refused a value of this event that normalising did not catch. */
const UNSTORABLE = new IngestError("malformed", "the event holds a value that cannot be stored");
