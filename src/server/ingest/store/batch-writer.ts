import type { Logger } from "../../logger";
import { addTagCounts, commitBatch, type CommittedTags, type StatementRunner } from "./batch-commit";
import type { PendingOccurrence, PendingOutcome } from "./pending-occurrence";
import { prepareOccurrence } from "./prepared-occurrence";
import { QueuedRow, type BatchItem, type RowKind } from "./queued-row";
import { StorageUnavailableError } from "../http/storage-unavailable";
import { TagCountBuffer } from "./tag-count-buffer";

export interface BatchWriterOptions {
  /** Events per transaction at most. */
  maxBatch: number;
  /**
   * Transactions committing at once. PostgreSQL overlaps one batch's commit (fsync) with the
   * next batch's statements; PGlite has a single connection, so 1 there.
   */
  maxInFlight: number;
  /** Events waiting at most before new ones are refused with 503 (backpressure, bounded memory). */
  maxQueue: number;
  /** How often summed tag counts are written (see TagCountBuffer). */
  tagFlushMs: number;
}

interface Waiter {
  item: BatchItem;
  resolve: () => void;
  reject: (error: Error) => void;
}

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
  private tagFlushTimer: NodeJS.Timeout | null = null;
  private tagFlush: Promise<void> | null = null;

  constructor(
    private readonly db: StatementRunner,
    private readonly logger: Logger,
    private readonly options: BatchWriterOptions = { maxBatch: 1000, maxQueue: 20_000, maxInFlight: 1, tagFlushMs: 1000 },
  ) {
    this.tagCounts = new TagCountBuffer(options.tagFlushMs);
  }

  /** Resolves once the event is committed; rejects with StorageUnavailableError otherwise. */
  write(item: PendingOccurrence): Promise<void> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    return new Promise<void>((resolve, reject) => {
      // Prepared now, while an earlier batch commits, rather than when this one is built.
      this.queue.push({ item: prepareOccurrence(item), resolve, reject });
      this.schedule();
    });
  }

  /** Another domain's row (see QueuedRow), under the same queue limit; resolves once committed. */
  writeRow<T>(kind: RowKind<T>, row: T): Promise<void> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item: new QueuedRow(kind, row), resolve, reject });
      this.schedule();
    });
  }

  /** Why a new write is refused (503): shutting down, or the queue is full (backpressure). */
  private refusal(): StorageUnavailableError | null {
    if (this.closed) return new StorageUnavailableError("Ingest is shutting down");
    if (this.queue.length >= this.options.maxQueue) return new StorageUnavailableError("Ingest queue is full", 1);
    return null;
  }

  /** Outcome counters ride along with the next commit (best effort: they are statistics). */
  record(outcome: PendingOutcome) {
    this.outcomes.push(outcome);
    this.schedule();
  }

  /** Commits what is queued, writes the tag counts, and refuses new writes (SIGTERM). */
  async close() {
    this.closed = true;
    if (this.tagFlushTimer) clearTimeout(this.tagFlushTimer);
    while (this.inFlight > 0 || this.queue.length > 0 || this.outcomes.length > 0) {
      this.schedule();
      await new Promise<void>((resolve) => this.idle.push(resolve));
    }
    await this.tagFlush;
    // One last attempt: if the database is gone these counts go with the process, as on a crash.
    if (this.tagCounts.size > 0) await this.flushTags(this.tagCounts.take());
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
      commit = this.commitNext();
      answer();
    }
  }

  /** Takes what is queued and starts committing it; resolves to what answers its requests. */
  private commitNext(): Promise<() => void> | null {
    const waiters = this.queue.splice(0, this.options.maxBatch);
    const outcomes = this.outcomes.splice(0);
    if (waiters.length === 0 && outcomes.length === 0) return null;
    // More work queued than this batch takes: let another transaction start on it now.
    if (this.queue.length > 0) this.schedule();
    return this.commitWithRetry(
      waiters.map((waiter) => waiter.item),
      outcomes,
    ).then(
      (committed) => () => {
        for (const waiter of waiters) waiter.resolve();
        this.countTags(committed);
      },
      (error: unknown) => () => {
        this.logger.warn("ingest batch failed", { events: waiters.length, err: error });
        const failure = new StorageUnavailableError("Storage is unavailable", 5, { cause: error });
        for (const waiter of waiters) waiter.reject(failure);
      },
    );
  }

  private countTags(committed: CommittedTags[]) {
    for (const event of committed) this.tagCounts.add(event.organizationId, event.projectId, event.issueId, event.tags);
    this.flushTagsIfDue();
    this.armTagFlush();
  }

  /**
   * Writes the tag counts beside the event batches, not in a commit slot: the statement touches
   * only issue_tag_counts, so it neither waits for nor delays any request's answer. One at a time.
   */
  private flushTagsIfDue() {
    if (this.tagFlush || this.closed || !this.tagCounts.isDue()) return;
    this.tagFlush = this.flushTags(this.tagCounts.take()).finally(() => {
      this.tagFlush = null;
      this.armTagFlush();
    });
  }

  /** When no further batch comes along to carry them, a timer gets the counts written. */
  private armTagFlush() {
    if (this.tagCounts.size === 0 || this.tagFlushTimer || this.tagFlush || this.closed) return;
    this.tagFlushTimer = setTimeout(() => {
      this.tagFlushTimer = null;
      this.flushTagsIfDue();
      this.armTagFlush();
    }, this.tagCounts.msUntilDue() + 1);
    this.tagFlushTimer.unref();
  }

  private async flushTags(rows: ReturnType<TagCountBuffer["take"]>) {
    try {
      await addTagCounts(this.db, rows);
    } catch (error) {
      // Statistics, not events: keep them for the next flush rather than fail anyone's request.
      this.logger.warn("tag counts flush failed; will retry", { rows: rows.length, err: error });
      this.tagCounts.putBack(rows);
    }
  }

  /**
   * Concurrent batches lock issue and rollup rows in the same key order, so deadlocks should not
   * happen; if PostgreSQL still picks this transaction as a deadlock or serialization victim,
   * nothing was written and one more attempt is safe.
   */
  private async commitWithRetry(items: BatchItem[], outcomes: PendingOutcome[]) {
    try {
      return await commitBatch(this.db, items, outcomes);
    } catch (error) {
      const code = (error as { cause?: { code?: string }; code?: string }).cause?.code ?? (error as { code?: string }).code;
      if (code !== "40P01" && code !== "40001") throw error;
      return await commitBatch(this.db, items, outcomes);
    }
  }
}
