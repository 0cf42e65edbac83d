import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";

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
  scope: "project" | "key" | null;
}

const ALLOWED: RateLimitVerdict = { limited: false, retryAfterSeconds: 0, scope: null };

/**
 * Fixed-window counters in the database, so every replica sees the same count. Only consulted
 * when a limit is configured: the default costs the hot path nothing.
 */
export class IngestRateLimiter {
  constructor(private readonly db: Db, private readonly config: RateLimitConfig, private readonly now: () => number = Date.now) {}

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
      const [row] = await executeRows<{ count: number }>(
        this.db,
        sql`insert into ingest_rate_counters (key, window_start, count) values (${check.key}, ${windowStart}, 1)
            on conflict (key, window_start) do update set count = ingest_rate_counters.count + 1
            returning count`,
      );
      if (Number(row.count) > check.limit) return { limited: true, retryAfterSeconds, scope: check.scope };
    }
    return ALLOWED;
  }
}
