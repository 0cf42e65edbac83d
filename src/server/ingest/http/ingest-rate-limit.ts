import type { Logger } from "../../logger";
import type { RateCounterStore } from "./rate-counter.store";

export interface RateLimitConfig {
  windowSeconds: number;
  /** Requests per window per project; 0 = unlimited. */
  perProject: number;
  /** Requests per window per client key; 0 = unlimited. */
  perKey: number;
  /**
   * Decompressed body bytes per window per client key, counting bodies of LARGE_BODY_BYTES and
   * more; 0 = unlimited. On by default (INGEST_KEY_BYTE_RATE_LIMIT): one key sending large
   * envelopes must not take the whole process and database from every other tenant (issue 31).
   */
  bytesPerKey?: number;
}

/**
 * Bodies smaller than this are not counted against the byte budget: the usual request (one event
 * of a few KB) then costs no round trip to the counter store, while a body this large costs far
 * more than one. Many small bodies are what the request limits (perKey, perProject) are for.
 */
export const LARGE_BODY_BYTES = 64 * 1024;

export interface RateLimitVerdict {
  limited: boolean;
  retryAfterSeconds: number;
  /** `organization`: the plan's monthly quota is spent (reason usage_exceeded). */
  scope: "project" | "key" | "organization" | null;
}

const ALLOWED: RateLimitVerdict = { limited: false, retryAfterSeconds: 0, scope: null };

/**
 * Fixed-window counters in a shared store, so every replica sees the same count. Only consulted
 * when a limit is configured: the default costs the hot path nothing. If the store fails, events
 * are let through (logged): losing a quota check is better than losing events.
 */
export class IngestRateLimiter {
  /** Keys whose byte budget is spent, until the end of that window (this replica's memory only: a shortcut, not the count). */
  private readonly bytesSpentUntil = new Map<string, number>();

  constructor(
    private readonly store: RateCounterStore,
    private readonly config: RateLimitConfig,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled() {
    return this.config.perProject > 0 || this.config.perKey > 0;
  }

  /** Whether a body of this many decompressed bytes is counted against its key's byte budget. */
  countsBytes(bytes: number) {
    return (this.config.bytesPerKey ?? 0) > 0 && bytes >= LARGE_BODY_BYTES;
  }

  /** Adds a large body to its key's byte budget for the window; limited once the budget is spent. */
  async checkBytes(keyId: string, bytes: number): Promise<RateLimitVerdict> {
    const limit = this.config.bytesPerKey ?? 0;
    if (!this.countsBytes(bytes)) return ALLOWED;
    const { windowStart, retryAfterSeconds } = this.window();
    let total: number;
    try {
      total = await this.store.add(`key-bytes:${keyId}`, windowStart, bytes, this.config.windowSeconds);
    } catch (error) {
      this.logger.warn("rate-limit store unavailable; allowing", { err: error });
      return ALLOWED;
    }
    if (total <= limit) return ALLOWED;
    this.bytesSpentUntil.set(keyId, windowStart + this.config.windowSeconds * 1000);
    return { limited: true, retryAfterSeconds, scope: "key" };
  }

  /**
   * Whether this key's byte budget was found spent in the current window. Then a large body is
   * refused before it is read: decompressing 20 MB only to refuse it cost every tenant time.
   */
  bytesSpent(keyId: string): RateLimitVerdict {
    const until = this.bytesSpentUntil.get(keyId);
    if (until === undefined) return ALLOWED;
    const now = this.now();
    if (now < until) return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)), scope: "key" };
    this.bytesSpentUntil.delete(keyId);
    return ALLOWED;
  }

  private window() {
    const windowMs = this.config.windowSeconds * 1000;
    const windowStart = Math.floor(this.now() / windowMs) * windowMs;
    return { windowStart, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - this.now()) / 1000)) };
  }

  async check(projectId: string, keyId: string): Promise<RateLimitVerdict> {
    if (!this.enabled) return ALLOWED;
    const { windowStart, retryAfterSeconds } = this.window();
    const checks: { key: string; limit: number; scope: "project" | "key" }[] = [];
    if (this.config.perProject > 0) checks.push({ key: `project:${projectId}`, limit: this.config.perProject, scope: "project" });
    if (this.config.perKey > 0) checks.push({ key: `key:${keyId}`, limit: this.config.perKey, scope: "key" });
    for (const check of checks) {
      let count: number;
      try {
        count = await this.store.increment(check.key, windowStart, this.config.windowSeconds);
      } catch (error) {
        this.logger.warn("rate-limit store unavailable; allowing", { err: error });
        return ALLOWED;
      }
      if (count > check.limit) return { limited: true, retryAfterSeconds, scope: check.scope };
    }
    return ALLOWED;
  }
}
