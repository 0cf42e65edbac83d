import type { Logger } from "../../logger";
import type { RateCounterStore } from "./rate-counter.store";

export interface RateLimitConfig {
  windowSeconds: number;
  /** Requests per window per project; 0 = unlimited. */
  perProject: number;
  /** Requests per window per client key; 0 = unlimited. */
  perKey: number;
}

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
  constructor(
    private readonly store: RateCounterStore,
    private readonly config: RateLimitConfig,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled() {
    return this.config.perProject > 0 || this.config.perKey > 0;
  }

  async check(projectId: string, keyId: string): Promise<RateLimitVerdict> {
    if (!this.enabled) return ALLOWED;
    const windowMs = this.config.windowSeconds * 1000;
    const windowStart = Math.floor(this.now() / windowMs) * windowMs;
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - this.now()) / 1000));
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
