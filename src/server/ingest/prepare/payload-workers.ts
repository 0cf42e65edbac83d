import { Worker } from "node:worker_threads";
import type { Logger } from "../../logger";
import { IngestError, type IngestFailure } from "../http/ingest-error";
import { readyPayloadAsync, type PrepareInput, type ReadyPayload } from "./ready-payload";

/** A worker's answer to one request body. */
export type WorkerAnswer = { id: number; ok: true; value: ReadyPayload } | { id: number; ok: false; failure: IngestFailure | null; message: string };

interface Pending {
  input: PrepareInput;
  resolve: (payload: ReadyPayload) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  pending: Map<number, Pending>;
}

const BOOT = new URL("./payload-worker.boot.mjs", import.meta.url);
const ENTRY = new URL("./payload-worker.ts", import.meta.url).href;
/**
 * A body's objects die as soon as it is prepared, so a small young generation costs the worker
 * little and keeps its heap — and the process's peak RSS — down (bench/README.md, session 16).
 */
const WORKER_HEAP = { maxYoungGenerationSizeMb: 4 };
/** A worker that stopped is started again after this long (a crash loop must not spin). */
const RESTART_DELAY_MS = 1000;
/**
 * Bodies a worker may hold before the main thread prepares the next one itself. Requests come in
 * bursts (a committed batch answers many connections at once, and they send again together); a
 * worker alone would work through a burst one body after another while the main thread waits, so
 * past this depth the main thread shares the burst (bench/README.md, session 17).
 */
const DEFAULT_SHARE_AT = 4;

/**
 * Parsing, normalising, grouping and preparing events (ready-payload.ts) on worker threads. The
 * main thread is ingest's bottleneck — it also serves HTTP, drives the database driver and
 * answers — so the pure part of each request goes to a worker and the main thread keeps the rest
 * (bench/README.md, session 16). With `size` 0, and while no worker is ready yet (they start on
 * first use), bodies are prepared inline: same function, same result. A worker that dies hands
 * its unanswered bodies back to the main thread, so no request is lost or left waiting.
 */
export class PayloadWorkers {
  private slots: Slot[] = [];
  private nextId = 0;
  /** Bodies the workers have answered for (tests read it). */
  workerAnswers = 0;
  private started = false;
  private closed = false;
  private onReady: (() => void)[] = [];

  constructor(
    private readonly size: number,
    private readonly logger: Logger,
    /** The worker module (tests give one that misbehaves). */
    private readonly entry = ENTRY,
    /** Past this many bodies held by the least busy worker, the next is prepared inline. */
    private readonly shareAt = DEFAULT_SHARE_AT,
  ) {}

  /** Workers started and ready to take bodies. */
  get readyWorkers() {
    return this.slots.filter((slot) => slot.ready).length;
  }

  /**
   * Starts the workers if they have not started yet and resolves once one is ready (at once with
   * none to start): for whoever must not count their start-up, such as a memory measurement.
   */
  whenReady(): Promise<void> {
    if (!this.started && !this.closed) this.start();
    if (this.size === 0 || this.closed || this.readyWorkers > 0) return Promise.resolve();
    return new Promise((resolve) => this.onReady.push(resolve));
  }

  prepare(input: PrepareInput): Promise<ReadyPayload> {
    if (!this.started && !this.closed) this.start();
    const slot = this.leastBusy();
    if (!slot || slot.pending.size >= this.shareAt) return readyPayloadAsync(input);
    const id = this.nextId++;
    return new Promise<ReadyPayload>((resolve, reject) => {
      slot.pending.set(id, { input, resolve, reject });
      // A small Buffer is a view into Node's shared 8 KiB pool, which a message would copy whole:
      // the body's own bytes go instead, moved rather than copied (the original stays for a retry).
      const body = new Uint8Array(input.body);
      slot.worker.postMessage({ id, input: { ...input, body } }, [body.buffer]);
    });
  }

  /** Stops the workers; bodies they still hold are prepared inline. */
  async close() {
    this.closed = true;
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private start() {
    this.started = true;
    for (let i = 0; i < this.size; i++) this.spawn();
  }

  private spawn() {
    const worker = new Worker(BOOT, { workerData: { entry: this.entry }, name: "ingest-payload", resourceLimits: WORKER_HEAP });
    const slot: Slot = { worker, ready: false, pending: new Map() };
    this.slots.push(slot);
    worker.on("message", (message: WorkerAnswer | { ready: true }) => {
      if (!("ready" in message)) return this.settle(slot, message);
      slot.ready = true;
      for (const resolve of this.onReady.splice(0)) resolve();
    });
    worker.on("error", (error) => this.logger.error("ingest payload worker failed", { err: error }));
    worker.on("exit", (code) => {
      slot.ready = false;
      this.slots = this.slots.filter((other) => other !== slot);
      for (const { input, resolve, reject } of slot.pending.values()) readyPayloadAsync(input).then(resolve, reject);
      slot.pending.clear();
      if (this.closed) return;
      this.logger.warn("ingest payload worker stopped; starting another", { code });
      setTimeout(() => {
        if (!this.closed) this.spawn();
      }, RESTART_DELAY_MS).unref();
    });
    // A worker must not keep the process alive on its own (shutdown terminates it in any case).
    worker.unref();
  }

  private settle(slot: Slot, answer: WorkerAnswer) {
    const pending = slot.pending.get(answer.id);
    if (!pending) return;
    slot.pending.delete(answer.id);
    this.workerAnswers++;
    if (answer.ok) pending.resolve(answer.value);
    else pending.reject(answer.failure ? IngestError.fromFailure(answer.failure) : new Error(answer.message));
  }

  private leastBusy(): Slot | null {
    let best: Slot | null = null;
    for (const slot of this.slots) if (slot.ready && (!best || slot.pending.size < best.pending.size)) best = slot;
    return best;
  }
}
