import { Worker } from "node:worker_threads";
import type { Logger } from "../logger";
import type { MapIndexBuild } from "./map-index-build";
import { MapInvalidError, type GeneratedPosition, type MapInput, type OriginalPosition } from "./parsed-source-map";
import { SOURCE_MAP_LIMITS, type SourceMapLimits } from "./source-map-limits";
import type { MapIndexParts } from "./source-map-store";

/** One lookup sent to the worker: the map's key, its bytes when the worker said it lacks them, the positions. */
export interface LookupRequest {
  id: number;
  key: string;
  input?: MapInput;
  positions: GeneratedPosition[];
  /** Answer the map's index (map-index-build.ts) instead of positions. */
  index?: true;
}

export type LookupAnswer =
  | { id: number; status: "ok"; debugId: string | null; positions: OriginalPosition[] }
  | { id: number; status: "invalid"; reason: string }
  /** The worker holds no parsed map under the key: send it again with the bytes. */
  | { id: number; status: "missing" }
  | ({ id: number } & MapIndexBuild);

/** What a lookup resolves to: the answers for the positions, or why the map cannot be used. */
export type MapAnswer = { status: "ok"; debugId: string | null; positions: OriginalPosition[] } | { status: "invalid"; reason: string };

/** The seam symbolicate() reads maps through; SourceMapWorkers is its implementation. */
export interface MapLookup {
  /**
   * The original positions of `positions` in the map stored under `key` (its SHA-1). `load` is
   * called only when the map is not parsed yet; it may throw MapInvalidError (e.g. over the size cap).
   * The bytes it returns are handed over: moved to the worker thread, they are detached here.
   * `index`, the map's stored index where there is one, may answer without the map's bytes.
   */
  lookup(key: string, load: () => Promise<MapInput>, positions: GeneratedPosition[], index?: MapIndexParts): Promise<MapAnswer>;
}

/**
 * The symbolicator cannot take the lookup now (its queue is full, or it is closing). Nothing is
 * wrong with the map: the caller keeps the frames as the SDK sent them.
 */
export class SymbolicatorUnavailableError extends Error {}

/** What the worker answers, without the request's id. */
type WorkerAnswer = MapAnswer | "missing" | MapIndexBuild;

interface Pending {
  request: Omit<LookupRequest, "id">;
  attempt: number;
  timer: NodeJS.Timeout;
  resolve: (answer: WorkerAnswer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** In the order sent, which is the order the worker answers: the first is the one it is on. */
  pending: Map<number, Pending>;
}

const BOOT = new URL("./source-map-worker.boot.mjs", import.meta.url);
const ENTRY = new URL("./source-map-worker.ts", import.meta.url).href;
/** Keys of maps a worker died on, remembered so that the next event does not kill the next worker. */
const MAX_POISONED = 1000;

/**
 * Source maps parsed and looked up on worker threads, their parsed-map caches with them. A lookup
 * goes to the worker its key hashes to (so each map is parsed and cached once), first without the
 * map's bytes; only a worker that answers "missing" is sent them. Whatever happens to a worker, a
 * lookup settles: a worker that dies (out of its heap, or replaced after `lookupTimeoutMs` without
 * an answer) is replaced on the next lookup; the map it was parsing answers `invalid` (and is
 * remembered as such); the other lookups it held are sent once more to its successor.
 */
export class SourceMapWorkers implements MapLookup {
  private readonly slots: (Slot | null)[];
  private readonly poisoned = new Map<string, string>();
  private nextId = 0;
  private closed = false;
  /** Workers started so far, replacements included (tests read it). */
  started = 0;

  constructor(
    private readonly logger: Logger,
    private readonly options: { size?: number; limits?: SourceMapLimits; entry?: string } = {},
  ) {
    this.slots = Array.from({ length: Math.max(1, options.size ?? 1) }, () => null);
  }

  private get limits() {
    return this.options.limits ?? SOURCE_MAP_LIMITS;
  }

  async lookup(key: string, load: () => Promise<MapInput>, positions: GeneratedPosition[]): Promise<MapAnswer> {
    const known = this.poisoned.get(key);
    if (known !== undefined) return { status: "invalid", reason: known };
    let answer = (await this.send({ key, positions })) as MapAnswer | "missing";
    // "missing" comes back once the bytes were sent only if the worker died meanwhile: its successor's cache is empty.
    for (let loads = 0; answer === "missing"; loads++) {
      if (loads === 2) return { status: "invalid", reason: "the symbolicator lost the map twice" };
      let input: MapInput;
      try {
        input = owned(await load());
      } catch (error) {
        if (error instanceof MapInvalidError) return { status: "invalid", reason: error.message };
        throw error;
      }
      answer = (await this.send({ key, input, positions })) as MapAnswer | "missing";
    }
    return answer;
  }

  /**
   * The index of the map `load` reads (map-index-build.ts), built on the worker, which keeps the
   * parsed map in its cache as a lookup would. A map the worker cannot parse is not indexed, with why.
   */
  async index(key: string, load: () => Promise<MapInput>): Promise<MapIndexBuild> {
    const known = this.poisoned.get(key);
    if (known !== undefined) return { status: "unindexed", reason: known };
    let input: MapInput;
    try {
      input = owned(await load());
    } catch (error) {
      if (error instanceof MapInvalidError) return { status: "unindexed", reason: error.message };
      throw error;
    }
    const answer = (await this.send({ key, input, positions: [], index: true })) as MapIndexBuild | MapAnswer | "missing";
    if (answer === "missing") return { status: "unindexed", reason: "the symbolicator lost the map" };
    if (answer.status === "invalid") return { status: "unindexed", reason: answer.reason };
    if (answer.status === "ok") throw new Error("the symbolicator answered positions to an index request");
    return answer;
  }

  async close() {
    this.closed = true;
    await Promise.all(this.slots.map((slot) => slot?.worker.terminate()));
  }

  private send(request: Omit<LookupRequest, "id">, attempt = 0): Promise<WorkerAnswer> {
    if (this.closed) return Promise.reject(new SymbolicatorUnavailableError("the symbolicator is closed"));
    const slot = this.slotFor(request.key);
    if (slot.pending.size >= this.limits.maxQueuedLookups) {
      return Promise.reject(new SymbolicatorUnavailableError(`the symbolicator holds ${slot.pending.size} lookups already`));
    }
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const timer = setTimeout(() => this.stuck(slot), this.limits.lookupTimeoutMs);
      timer.unref();
      slot.pending.set(id, { request, attempt, timer, resolve, reject });
      // An idle worker must not keep the process alive, a busy one must: someone awaits its answer.
      if (slot.pending.size === 1) slot.worker.ref();
      // A map's bytes are moved, not copied: cloning 20 MB costs the main thread ~100 ms (bench:symbolicate).
      const transfer = request.input ? [request.input.bytes.buffer as ArrayBuffer] : [];
      try {
        slot.worker.postMessage({ id, ...request } satisfies LookupRequest, transfer);
      } catch (error) {
        slot.pending.delete(id);
        clearTimeout(timer);
        reject(error as Error);
      }
    });
  }

  private slotFor(key: string): Slot {
    const index = hash(key) % this.slots.length;
    return (this.slots[index] ??= this.spawn(index));
  }

  private spawn(index: number): Slot {
    this.started++;
    const worker = new Worker(BOOT, {
      workerData: { entry: this.options.entry ?? ENTRY, limits: this.limits },
      name: "source-maps",
      resourceLimits: { maxOldGenerationSizeMb: this.limits.workerHeapMb },
    });
    const slot: Slot = { worker, pending: new Map() };
    worker.on("message", (message: LookupAnswer | { ready: true }) => {
      if ("ready" in message) return;
      const pending = slot.pending.get(message.id);
      if (!pending) return;
      slot.pending.delete(message.id);
      if (slot.pending.size === 0) worker.unref();
      clearTimeout(pending.timer);
      pending.resolve(message.status === "missing" ? "missing" : strip(message));
    });
    worker.on("error", (error) => this.logger.error("source map worker failed", { err: error }));
    worker.on("exit", (code) => this.stopped(index, slot, code));
    worker.unref();
    return slot;
  }

  /** No answer for lookupTimeoutMs: the worker is stuck on a map; replace it (its exit settles what it held). */
  private stuck(slot: Slot) {
    this.logger.warn("source map worker gave no answer in time; replacing it", { timeoutMs: this.limits.lookupTimeoutMs, pending: slot.pending.size });
    void slot.worker.terminate();
  }

  private stopped(index: number, slot: Slot, code: number) {
    if (this.slots[index] === slot) this.slots[index] = null;
    const held = [...slot.pending.values()];
    slot.pending.clear();
    for (const pending of held) clearTimeout(pending.timer);
    if (this.closed) {
      for (const pending of held) pending.reject(new SymbolicatorUnavailableError("the symbolicator is closed"));
      return;
    }
    this.logger.warn("source map worker stopped; the next lookup starts another", { code, held: held.length });
    const [current, ...rest] = held;
    // The worker answers in order, so it died on the first lookup it held. If that one carried a
    // map, the map is what killed it: answer invalid, and keep answering so without sending it again.
    if (current?.request.input !== undefined) {
      const reason = `the map stopped the symbolicator (worker exit code ${code}: out of memory or over ${this.limits.lookupTimeoutMs} ms)`;
      if (this.poisoned.size >= MAX_POISONED) this.poisoned.delete(this.poisoned.keys().next().value!);
      this.poisoned.set(current.request.key, reason);
      current.resolve({ status: "invalid", reason });
    } else if (current) rest.unshift(current);
    for (const pending of rest) {
      if (pending.attempt >= 1) pending.resolve({ status: "invalid", reason: "the symbolicator stopped twice on this lookup" });
      // Sent again without its bytes (moved to the dead worker): the successor answers "missing" and lookup() reads them again.
      else this.send({ key: pending.request.key, positions: pending.request.positions }, pending.attempt + 1).then(pending.resolve, pending.reject);
    }
  }
}

/**
 * The input with bytes that span their own ArrayBuffer, so that moving them to the worker detaches
 * nothing else: a view into a larger buffer (Node's pool, a driver's read buffer) is copied first.
 */
function owned(input: MapInput): MapInput {
  const { bytes } = input;
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return input;
  return { ...input, bytes: new Uint8Array(bytes) };
}

function strip(answer: Exclude<LookupAnswer, { status: "missing" }>): MapAnswer | MapIndexBuild {
  switch (answer.status) {
    case "ok":
      return { status: "ok", debugId: answer.debugId, positions: answer.positions };
    case "invalid":
      return { status: "invalid", reason: answer.reason };
    case "indexed":
      return { status: "indexed", parts: answer.parts };
    case "unindexed":
      return { status: "unindexed", reason: answer.reason };
  }
}

/** FNV-1a of the key: which worker caches which map. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
