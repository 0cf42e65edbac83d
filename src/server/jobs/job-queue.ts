import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import type { Logger } from "../logger";
import { countJobFailure } from "../metrics/process-metrics";
import type { AppJobs, JobAttempt, JobHandlers, JobSchemas } from "./job-registry";

export interface JobQueueOptions {
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

const DEFAULTS: JobQueueOptions = { pollMs: 1000, leaseMs: 60_000, maxAttempts: 5, baseBackoffMs: 2000, maxBackoffMs: 5 * 60_000, batchSize: 4 };

/** The keys of a payload that hold an array (what `appendTo` may name). */
type ArrayKey<Payload> = { [Key in keyof Payload]-?: NonNullable<Payload[Key]> extends readonly unknown[] ? Key : never }[keyof Payload] & string;

export interface EnqueueOptions<Payload = unknown> {
  /** At most one job of this name and key waits at a time (a running one does not count). */
  singletonKey?: string;
  startAfter?: Date;
  /**
   * With a singletonKey: when a job of that key is already waiting, the payload's array under this
   * key is appended to the waiting job's (so facts gathered while it waits run as one job),
   * instead of the new job being dropped.
   */
  appendTo?: ArrayKey<Payload>;
  /** Attempts before the job is given up, when this job must outlast longer outages than the queue's default. */
  maxAttempts?: number;
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
 * Background work (alert delivery, digests, and what comes: partition maintenance, retention)
 * through one queue over a `jobs` table shared by every replica, on PGlite and PostgreSQL alike.
 * pg-boss needs node-postgres and cannot run on the embedded PGlite, so this is the one queue for
 * both. It is typed by a registry of job names and payload schemas (job-registry.ts): `enqueue`
 * takes the payload type from the name, and each stored payload is parsed with its name's schema
 * before its handler sees it.
 *
 * Contract:
 * - `enqueue` resolves once the job is durably stored, and returns its id. With a `singletonKey`,
 *   a second job of the same name and key waiting to run is not added (null is returned), so
 *   "issue regressed" facts handed over twice make one alert.
 * - At most one runner executes a given job at a time across all replicas: a claim is ONE
 *   statement (`FOR UPDATE SKIP LOCKED` picks due rows no other runner is claiming, and the same
 *   statement marks them active with a fresh lease). A runner that dies leaves its lease to expire
 *   and the job is claimed again, so handlers must be idempotent. Completion and failure name the
 *   lease, so a runner that lost its lease changes nothing.
 * - Nothing on the ingest hot path awaits a job's completion; the batch writer only enqueues,
 *   after its commit.
 * - `close` stops taking new work and waits for running handlers (graceful shutdown).
 */
export class JobQueue<Schemas extends JobSchemas = AppJobs> {
  private handlers: JobHandlers<Schemas> | null = null;
  private readonly options: JobQueueOptions;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wakeAgain = false;
  private closed = false;

  constructor(
    private readonly schemas: Schemas,
    private readonly db: Db,
    private readonly logger: Logger,
    options: Partial<JobQueueOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  async enqueue<Name extends keyof Schemas & string>(
    name: Name,
    payload: z.input<Schemas[Name]>,
    options: EnqueueOptions<z.input<Schemas[Name]>> = {},
  ): Promise<string | null> {
    return this.enqueueWith(this.db, name, payload, options);
  }

  /**
   * Enqueues inside the caller's transaction (`db` is the transaction): the job exists exactly when
   * the caller's rows do — the transactional outbox that makes "notification recorded" and
   * "delivery scheduled" one fact. Wakes this runner only after the caller commits (call `wake`).
   */
  async enqueueWith<Name extends keyof Schemas & string>(
    db: Pick<Db, "execute">,
    name: Name,
    payload: z.input<Schemas[Name]>,
    options: EnqueueOptions<z.input<Schemas[Name]>> = {},
  ): Promise<string | null> {
    const runAt = options.startAfter ?? new Date();
    const onWaiting = options.appendTo
      ? sql`do update set payload = jsonb_set(jobs.payload::jsonb, array[${options.appendTo}]::text[],
                                              (jobs.payload::jsonb -> ${options.appendTo}) || (excluded.payload::jsonb -> ${options.appendTo}))::text`
      : sql`do nothing`;
    // xmax is 0 on a row this insert created; an append to a waiting job has its wake-up armed already.
    const rows = await executeRows<{ id: string; created: boolean }>(
      db,
      sql`insert into jobs (name, payload, singleton_key, run_at, max_attempts)
          values (${name}, ${JSON.stringify(payload)}, ${options.singletonKey ?? null}, ${runAt.toISOString()}::timestamptz, ${options.maxAttempts ?? this.options.maxAttempts})
          on conflict (name, singleton_key) where state = 'queued' and singleton_key is not null ${onWaiting}
          returning id, xmax = 0 as created`,
    );
    if (db === this.db && rows[0]?.created && this.handlers) this.wakeAt(runAt);
    return rows[0]?.id ?? null;
  }

  /**
   * Enqueues many jobs of one name, due now, in ONE statement inside the caller's transaction (as
   * enqueueWith; a key already waiting keeps its job). What a burst of notifications needs: one
   * delivery job each without a round trip each. Wake the runner after the caller commits.
   */
  async enqueueEachWith<Name extends keyof Schemas & string>(
    db: Pick<Db, "execute">,
    name: Name,
    jobs: { payload: z.input<Schemas[Name]>; singletonKey?: string }[],
  ): Promise<void> {
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

  /**
   * Starts running jobs, with one handler per name of the registry: a job added to the registry
   * does not compile until the app gives its handler here.
   */
  work(handlers: JobHandlers<Schemas>): void {
    if (this.handlers) throw new Error("The job queue's handlers are given once");
    this.handlers = handlers;
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
    while (!this.closed && this.handlers) {
      const claimed = await this.claim();
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((job) => this.run(job)));
    }
  }

  private async claim(): Promise<ClaimedJob[]> {
    const lease = randomUUID();
    const names = Object.keys(this.schemas);
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
    try {
      await this.handle(job.name, JSON.parse(job.payload), { last: job.attempts >= job.max_attempts });
      await executeRows(this.db, sql`delete from jobs where id = ${job.id}::uuid and lease = ${job.lease}::uuid`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = error instanceof PermanentJobError || job.attempts >= job.max_attempts;
      countJobFailure(job.name, giveUp);
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

  /** A payload its schema refuses cannot pass on a retry: the job is given up at once (and logged). */
  private async handle(name: string, stored: unknown, attempt: JobAttempt) {
    if (!this.isJobName(name) || !this.handlers) throw new PermanentJobError(`No handler for the job "${name}"`);
    await this.parseAndRun(this.handlers, name, stored, attempt);
  }

  private async parseAndRun<Name extends keyof Schemas & string>(handlers: JobHandlers<Schemas>, name: Name, stored: unknown, attempt: JobAttempt) {
    const parsed = z.safeParse(this.schemas[name], stored);
    if (!parsed.success) throw new PermanentJobError(`The payload of the job "${name}" does not match its schema: ${z.prettifyError(parsed.error)}`);
    await handlers[name](parsed.data, attempt);
  }

  private isJobName(name: string): name is keyof Schemas & string {
    return Object.hasOwn(this.schemas, name);
  }
}
