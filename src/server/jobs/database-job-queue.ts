import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import type { Logger } from "../logger";
import type { JobQueue, JsonValue } from "./job-queue";

export interface DatabaseJobQueueOptions {
  /** How often an idle runner looks for due jobs (enqueues in this process wake it at once). */
  pollMs: number;
  /** How long a claimed job is ours; a runner that dies holding it is replaced after this. */
  leaseMs: number;
  /** Attempts before a job is given up (its handler's last error is logged). */
  maxAttempts: number;
  /** Backoff before retry n is baseBackoffMs × 2^(n-1), capped at maxBackoffMs. */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /**
   * Jobs claimed per poll, run side by side. Few: jobs share the database pool with ingest, and a
   * burst of alert deliveries ten at a time kept ingest's batch statements waiting for connections
   * (p99 during a ten-rule burst 13–30 ms higher than with four; bench/README.md, session 15).
   */
  batchSize: number;
}

const DEFAULTS: DatabaseJobQueueOptions = { pollMs: 1000, leaseMs: 60_000, maxAttempts: 5, baseBackoffMs: 2000, maxBackoffMs: 5 * 60_000, batchSize: 4 };

export interface EnqueueOptions {
  /** At most one job of this name and key waits at a time (a running one does not count). */
  singletonKey?: string;
  startAfter?: Date;
  /**
   * With a singletonKey: when a job of that key is already waiting, the payload's array under this
   * key is appended to the waiting job's (so facts gathered while it waits run as one job),
   * instead of the new job being dropped.
   */
  appendTo?: string;
}

/** A job due within this long gets a timer that wakes its runner; later ones are found by the poll. */
const SOON_MS = 10_000;

interface ClaimedJob {
  id: string;
  name: string;
  payload: string;
  attempts: number;
  max_attempts: number;
  lease: string;
}

/** Thrown by a handler to give a job up at once instead of retrying it. */
export class PermanentJobError extends Error {}

/**
 * The JobQueue over a `jobs` table, on PGlite and PostgreSQL alike. pg-boss needs node-postgres
 * and cannot run on the embedded PGlite, so this is the one queue for both: a claim is ONE
 * statement (`FOR UPDATE SKIP LOCKED` picks due rows no other runner is claiming, and the same
 * statement marks them active with a fresh lease), so two replicas never run one job at once; a
 * runner that dies leaves its lease to expire and the job is claimed again (handlers are
 * idempotent). Completion and failure name the lease, so a runner that lost its lease changes nothing.
 */
export class DatabaseJobQueue implements JobQueue {
  private readonly handlers = new Map<string, (payload: JsonValue) => Promise<void>>();
  private readonly options: DatabaseJobQueueOptions;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wakeAgain = false;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    options: Partial<DatabaseJobQueueOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  async enqueue(name: string, payload: JsonValue, options: EnqueueOptions = {}): Promise<string | null> {
    return this.enqueueWith(this.db, name, payload, options);
  }

  /**
   * Enqueues inside the caller's transaction (`db` is the transaction): the job exists exactly when
   * the caller's rows do — the transactional outbox that makes "notification recorded" and
   * "delivery scheduled" one fact. Wakes this runner only after the caller commits (call `wake`).
   */
  async enqueueWith(db: Pick<Db, "execute">, name: string, payload: JsonValue, options: EnqueueOptions = {}): Promise<string | null> {
    const runAt = options.startAfter ?? new Date();
    const onWaiting = options.appendTo
      ? sql`do update set payload = jsonb_set(jobs.payload::jsonb, array[${options.appendTo}]::text[],
                                              (jobs.payload::jsonb -> ${options.appendTo}) || (excluded.payload::jsonb -> ${options.appendTo}))::text`
      : sql`do nothing`;
    // xmax is 0 on a row this insert created; an append to a waiting job has its wake-up armed already.
    const rows = await executeRows<{ id: string; created: boolean }>(
      db,
      sql`insert into jobs (name, payload, singleton_key, run_at, max_attempts)
          values (${name}, ${JSON.stringify(payload)}, ${options.singletonKey ?? null}, ${runAt.toISOString()}::timestamptz, ${this.options.maxAttempts})
          on conflict (name, singleton_key) where state = 'queued' and singleton_key is not null ${onWaiting}
          returning id, xmax = 0 as created`,
    );
    if (db === this.db && rows[0]?.created && this.handlers.has(name)) this.wakeAt(runAt);
    return rows[0]?.id ?? null;
  }

  /**
   * Enqueues many jobs of one name, due now, in ONE statement inside the caller's transaction (as
   * enqueueWith; a key already waiting keeps its job). What a burst of notifications needs: one
   * delivery job each without a round trip each. Wake the runner after the caller commits.
   */
  async enqueueEachWith(db: Pick<Db, "execute">, name: string, jobs: { payload: JsonValue; singletonKey?: string }[]): Promise<void> {
    if (jobs.length === 0) return;
    const rows = JSON.stringify(jobs.map((job) => ({ payload: JSON.stringify(job.payload), singleton_key: job.singletonKey ?? null })));
    await db.execute(
      sql`insert into jobs (name, payload, singleton_key, run_at, max_attempts)
          select ${name}, j.payload, j.singleton_key, now(), ${this.options.maxAttempts}
          from json_to_recordset(${rows}::json) as j(payload text, singleton_key text)
          on conflict (name, singleton_key) where state = 'queued' and singleton_key is not null do nothing`,
    );
  }

  /** Wakes the runner when a job enqueued here is due: now, or soon (a later one waits for the poll). */
  private wakeAt(runAt: Date) {
    const delay = runAt.getTime() - Date.now();
    if (delay <= 0) this.wake();
    else if (delay <= SOON_MS) setTimeout(() => this.wake(), delay).unref();
  }

  async work(name: string, handler: (payload: JsonValue) => Promise<void>): Promise<void> {
    this.handlers.set(name, handler);
    this.wake();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Runs due jobs now (and keeps running while there are some); then polls. */
  wake() {
    if (this.closed) return;
    if (this.running) {
      this.wakeAgain = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.drain()
      .catch((error: unknown) => this.logger.warn("job queue poll failed", { err: error }))
      .finally(() => {
        this.running = null;
        if (this.closed) return;
        if (this.wakeAgain) {
          this.wakeAgain = false;
          this.wake();
          return;
        }
        this.timer = setTimeout(() => this.wake(), this.options.pollMs);
        this.timer.unref();
      });
  }

  private async drain() {
    while (!this.closed && this.handlers.size > 0) {
      const claimed = await this.claim();
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((job) => this.run(job)));
    }
  }

  private async claim(): Promise<ClaimedJob[]> {
    const lease = randomUUID();
    const names = [...this.handlers.keys()];
    return executeRows<ClaimedJob>(
      this.db,
      sql`update jobs set state = 'active', lease = ${lease}::uuid, attempts = attempts + 1,
            locked_until = now() + ${`${this.options.leaseMs} milliseconds`}::interval
          where id in (
            select id from jobs
            where name = any(${sql.raw(`array[${names.map((n) => `'${n.replace(/'/g, "''")}'`).join(",")}]`)}::text[])
              and ((state = 'queued' and run_at <= now()) or (state = 'active' and locked_until < now()))
            order by run_at
            limit ${this.options.batchSize}
            for update skip locked)
          returning id, name, payload, attempts, max_attempts, lease`,
    );
  }

  private async run(job: ClaimedJob) {
    const handler = this.handlers.get(job.name);
    if (!handler) return;
    try {
      await handler(JSON.parse(job.payload) as JsonValue);
      await executeRows(this.db, sql`delete from jobs where id = ${job.id}::uuid and lease = ${job.lease}::uuid`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = error instanceof PermanentJobError || job.attempts >= job.max_attempts;
      if (giveUp) {
        this.logger.warn("job given up", { job: job.name, jobId: job.id, attempts: job.attempts, err: error });
        await executeRows(this.db, sql`delete from jobs where id = ${job.id}::uuid and lease = ${job.lease}::uuid`);
        return;
      }
      const backoff = Math.min(this.options.baseBackoffMs * 2 ** (job.attempts - 1), this.options.maxBackoffMs);
      await executeRows(
        this.db,
        sql`update jobs set state = 'queued', lease = null, locked_until = null, last_error = ${message.slice(0, 1000)},
              run_at = now() + ${`${backoff} milliseconds`}::interval
            where id = ${job.id}::uuid and lease = ${job.lease}::uuid`,
      ).catch((failure: unknown) => this.logger.warn("job retry not recorded (lease will expire)", { jobId: job.id, err: failure }));
    }
  }
}
