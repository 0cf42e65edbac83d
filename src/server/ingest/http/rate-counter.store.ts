import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { executeRows } from "../../db/execute";

/** Fixed-window counters shared by every replica: PostgreSQL by default, Redis when configured. */
export interface RateCounterStore {
  /** Adds one to the counter of `key` in the window starting at `windowStart` (ms); returns the new count. */
  increment(key: string, windowStart: number, windowSeconds: number): Promise<number>;
  /** Adds `amount` (may be negative) to the counter; returns the new count. The plan quota leases events in blocks with it. */
  add(key: string, windowStart: number, amount: number, windowSeconds: number): Promise<number>;
  /**
   * Adds `amount` only when the counter stays at or under `limit`, in one atomic step shared by
   * every replica; returns the new count, or null (nothing added) when it would pass the limit.
   * The plan quota reserves each request's events with it.
   */
  reserve(key: string, windowStart: number, amount: number, limit: number, windowSeconds: number): Promise<number | null>;
  close(): Promise<void>;
}

export class DatabaseRateCounterStore implements RateCounterStore {
  constructor(private readonly db: Db) {}

  async increment(key: string, windowStart: number): Promise<number> {
    const [row] = await executeRows<{ count: number }>(
      this.db,
      sql`insert into ingest_rate_counters (key, window_start, count) values (${key}, ${windowStart}, 1)
          on conflict (key, window_start) do update set count = ingest_rate_counters.count + 1
          returning count`,
    );
    return Number(row.count);
  }

  async add(key: string, windowStart: number, amount: number): Promise<number> {
    const [row] = await executeRows<{ count: number }>(
      this.db,
      sql`insert into ingest_rate_counters (key, window_start, count) values (${key}, ${windowStart}, ${amount})
          on conflict (key, window_start) do update set count = ingest_rate_counters.count + ${amount}
          returning count`,
    );
    return Number(row.count);
  }

  async reserve(key: string, windowStart: number, amount: number, limit: number): Promise<number | null> {
    // One statement: the conflicting row is locked while its condition is checked, so concurrent
    // reservations (from any replica) queue on it and none sees a count another is about to pass.
    const rows = await executeRows<{ count: number }>(
      this.db,
      sql`insert into ingest_rate_counters (key, window_start, count)
          select ${key}, ${windowStart}, ${amount}::integer where ${amount}::integer <= ${limit}::integer
          on conflict (key, window_start) do update set count = ingest_rate_counters.count + excluded.count
            where ingest_rate_counters.count + excluded.count <= ${limit}::integer
          returning count`,
    );
    return rows.length === 0 ? null : Number(rows[0]!.count);
  }

  async close() {}
}

interface RedisMulti {
  incr(key: string): RedisMulti;
  incrBy(key: string, amount: number): RedisMulti;
  expire(key: string, seconds: number, mode?: "NX"): RedisMulti;
  exec(): Promise<unknown[]>;
}

/** The part of node-redis this store uses (kept narrow so tests can see what it relies on). */
interface RedisLike {
  connect(): Promise<unknown>;
  multi(): RedisMulti;
  quit?(): Promise<unknown>;
  close?(): Promise<unknown>;
  on(event: "error", listener: (error: unknown) => void): unknown;
}

export class RedisRateCounterStore implements RateCounterStore {
  private ready: Promise<unknown>;

  constructor(private readonly client: RedisLike) {
    // node-redis' own types are generic over modules and scripts; the narrow interface is enough.
    // Errors surface on the commands; without a listener node-redis would crash the process.
    client.on("error", () => {});
    this.ready = client.connect();
  }

  async increment(key: string, windowStart: number, windowSeconds: number): Promise<number> {
    await this.ready;
    const redisKey = `faultline:ingest-rate:${key}:${windowStart}`;
    // The key outlives its window a little so late requests of the window still count.
    const [count] = await this.client
      .multi()
      .incr(redisKey)
      .expire(redisKey, windowSeconds + 5, "NX")
      .exec();
    return Number(count);
  }

  async add(key: string, windowStart: number, amount: number, windowSeconds: number): Promise<number> {
    await this.ready;
    const redisKey = `faultline:ingest-rate:${key}:${windowStart}`;
    const [count] = await this.client
      .multi()
      .incrBy(redisKey, amount)
      .expire(redisKey, windowSeconds + 5, "NX")
      .exec();
    return Number(count);
  }

  async reserve(key: string, windowStart: number, amount: number, limit: number, windowSeconds: number): Promise<number | null> {
    // INCRBY is atomic: a reservation that passes the limit is taken straight back. Two racing at
    // the edge may both be refused, but the count that admits never passes the limit.
    const count = await this.add(key, windowStart, amount, windowSeconds);
    if (count <= limit) return count;
    await this.add(key, windowStart, -amount, windowSeconds);
    return null;
  }

  async close() {
    await this.ready.catch(() => {});
    await (this.client.close?.() ?? this.client.quit?.());
  }
}
