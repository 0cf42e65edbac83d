import { describe, expect, it } from "vitest";
import type { RateCounterStore } from "../ingest/http/rate-counter.store";
import { createLogger } from "../logger";
import { UsageQuota } from "./usage-quota";

/** The shared counter as a map, counting the round trips the quota makes to it. */
function memoryCounters() {
  const counts = new Map<string, number>();
  const store = {
    calls: 0,
    failing: false,
    counts,
    async increment() {
      throw new Error("not used by the quota");
    },
    async add(key: string, windowStart: number, amount: number) {
      store.calls += 1;
      if (store.failing) throw new Error("store down");
      const id = `${key}@${windowStart}`;
      counts.set(id, (counts.get(id) ?? 0) + amount);
      return counts.get(id)!;
    },
    // As the database's conditional upsert: check and add in one step (no await between them).
    async reserve(key: string, windowStart: number, amount: number, limit: number) {
      store.calls += 1;
      if (store.failing) throw new Error("store down");
      const id = `${key}@${windowStart}`;
      const next = (counts.get(id) ?? 0) + amount;
      if (next > limit) return null;
      counts.set(id, next);
      return next;
    },
    async close() {},
  } satisfies RateCounterStore & Record<string, unknown>;
  return store;
}

function quotaOver(counters: RateCounterStore, options: { quota?: number; now?: () => number; plan?: "free" | "plus" } = {}) {
  const notices: string[] = [];
  const quota = new UsageQuota({
    counters,
    planOf: async () => options.plan ?? "free",
    quotaOf: (plan) => (plan === "plus" ? 0 : (options.quota ?? 50)),
    notice: (organizationId, month, percent) => notices.push(`${organizationId} ${month} ${percent}`),
    logger: createLogger("silent"),
    now: options.now,
  });
  return { quota, notices };
}

const admitted = async (quota: UsageQuota, org: string, times: number) => {
  let ok = 0;
  for (let i = 0; i < times; i++) if (!(await quota.admit(org, 1)).limited) ok += 1;
  return ok;
};

describe("UsageQuota", () => {
  it("admits exactly the quota across two replicas sharing one counter, and keeps no count of its own", async () => {
    const counters = memoryCounters();
    const a = quotaOver(counters, { quota: 250 });
    const b = quotaOver(counters, { quota: 250 });
    const results = await Promise.all([admitted(a.quota, "org", 200), admitted(b.quota, "org", 200)]);
    expect(results[0] + results[1]).toBe(250);
    expect([...counters.counts.values()]).toEqual([250]);
    // Nothing held back in a replica's memory: what the counter says is what was admitted.
    await a.quota.close();
    expect([...counters.counts.values()]).toEqual([250]);
  });

  it("refuses a request whose events do not all fit, and still admits a smaller one that does", async () => {
    const counters = memoryCounters();
    const { quota } = quotaOver(counters, { quota: 6 });
    expect((await quota.admit("org", 4)).limited).toBe(false);
    expect((await quota.admit("org", 3)).limited).toBe(true);
    expect([...counters.counts.values()]).toEqual([4]);
  });

  it("answers Retry-After until the month rolls over, then starts again from zero", async () => {
    let now = Date.UTC(2026, 10, 30, 23, 59, 0);
    const counters = memoryCounters();
    const { quota } = quotaOver(counters, { quota: 3, now: () => now });
    expect(await admitted(quota, "org", 5)).toBe(3);
    expect(await quota.admit("org", 1)).toEqual({ limited: true, retryAfterSeconds: 60 });
    now = Date.UTC(2026, 11, 1, 0, 0, 1);
    expect(await admitted(quota, "org", 5)).toBe(3);
  });

  it("notices 80 % and 100 % once each, as the events cross them", async () => {
    const { quota, notices } = quotaOver(memoryCounters(), { quota: 10, now: () => Date.UTC(2026, 0, 15) });
    await admitted(quota, "org", 7);
    expect(notices).toEqual([]);
    await admitted(quota, "org", 1);
    expect(notices).toEqual(["org 2026-01 80"]);
    await admitted(quota, "org", 2);
    expect(notices).toEqual(["org 2026-01 80", "org 2026-01 100"]);
  });

  it("gives events that could not be stored back to the shared counter, for every replica", async () => {
    const counters = memoryCounters();
    const { quota } = quotaOver(counters, { quota: 3 });
    expect(await admitted(quota, "org", 4)).toBe(3);
    await quota.release("org", 1);
    expect([...counters.counts.values()]).toEqual([2]);
    const other = quotaOver(counters, { quota: 3 });
    expect(await admitted(other.quota, "org", 2)).toBe(1);
  });

  it("refuses (retryably) rather than admits unchecked when the counter store fails, and does not limit an unlimited plan", async () => {
    const counters = memoryCounters();
    counters.failing = true;
    await expect(quotaOver(counters, { quota: 1 }).quota.admit("org", 1)).rejects.toThrow("store down");
    counters.failing = false;
    const plus = quotaOver(counters, { quota: 1, plan: "plus" });
    expect(await admitted(plus.quota, "org", 5)).toBe(5);
    expect(counters.counts.size).toBe(0);
  });

  it("reads the plan again once a webhook says it changed", async () => {
    let plan: "free" | "plus" = "free";
    const quota = new UsageQuota({
      counters: memoryCounters(),
      planOf: async () => plan,
      quotaOf: (current) => (current === "plus" ? 0 : 2),
      notice: () => {},
      logger: createLogger("silent"),
    });
    expect(await admitted(quota, "org", 4)).toBe(2);
    plan = "plus";
    quota.planChanged("org");
    expect(await admitted(quota, "org", 4)).toBe(4);
  });

  it("stops at the new quota after a downgrade: no events reserved under the old plan are left in a replica to spend", async () => {
    let plan: "free" | "plus" = "plus";
    const counters = memoryCounters();
    const replica = (): UsageQuota =>
      new UsageQuota({
        counters,
        planOf: async () => plan,
        quotaOf: (current) => (current === "plus" ? 1000 : 6),
        notice: () => {},
        logger: createLogger("silent"),
      });
    const [a, b] = [replica(), replica()];
    expect(await admitted(a, "org", 3)).toBe(3);
    plan = "free";
    a.planChanged("org");
    b.planChanged("org");
    const [fromA, fromB] = await Promise.all([admitted(a, "org", 10), admitted(b, "org", 10)]);
    expect(3 + fromA + fromB).toBe(6);
  });
});
