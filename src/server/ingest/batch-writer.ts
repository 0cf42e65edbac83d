import type { Db } from "../db/client";
import type { Logger } from "../logger";
import { commitBatch } from "./batch-commit";
import type { PendingOccurrence, PendingOutcome } from "./pending-occurrence";
import { StorageUnavailableError } from "./storage-unavailable";

export interface BatchWriterOptions {
  /** Events per transaction at most. */
  maxBatch: number;
  /** Events waiting at most before new ones are refused with 503 (backpressure, bounded memory). */
  maxQueue: number;
}

interface Waiter {
  item: PendingOccurrence;
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
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly options: BatchWriterOptions = { maxBatch: 1000, maxQueue: 20_000 },
  ) {}

  /** Resolves once the event is committed; rejects with StorageUnavailableError otherwise. */
  write(item: PendingOccurrence): Promise<void> {
    if (this.closed) return Promise.reject(new StorageUnavailableError("Ingest is shutting down"));
    if (this.queue.length >= this.options.maxQueue) {
      return Promise.reject(new StorageUnavailableError("Ingest queue is full", 1));
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Outcome counters ride along with the next commit (best effort: they are statistics). */
  record(outcome: PendingOutcome) {
    this.outcomes.push(outcome);
    this.schedule();
  }

  /** Commits what is queued and refuses new writes (SIGTERM). */
  async close() {
    this.closed = true;
    while (this.running || this.queue.length > 0 || this.outcomes.length > 0) {
      if (!this.running) this.schedule();
      await this.running;
    }
  }

  get pending() {
    return this.queue.length;
  }

  private schedule() {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.queue.length > 0 || this.outcomes.length > 0) this.schedule();
    });
  }

  private async drain() {
    // Yield once so requests arriving in the same tick join this batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const waiters = this.queue.splice(0, this.options.maxBatch);
    const outcomes = this.outcomes.splice(0);
    if (waiters.length === 0 && outcomes.length === 0) return;
    try {
      await commitBatch(
        this.db,
        waiters.map((waiter) => waiter.item),
        outcomes,
      );
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      this.logger.warn("ingest batch failed", { events: waiters.length, err: error });
      const failure = new StorageUnavailableError("Storage is unavailable", 5, { cause: error });
      for (const waiter of waiters) waiter.reject(failure);
    }
  }
}
