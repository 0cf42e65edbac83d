import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commitIsolating } from "./batch-isolation";

const dataError = Object.assign(new Error("invalid input syntax"), { code: "22P02" });
const isolable = (error: unknown) => error === dataError;

/** A commit that refuses any part holding a poisoned item, and counts its calls. */
function committer(poisoned: Set<number>, outageAfter = Infinity) {
  const calls: number[][] = [];
  const commit = async (part: number[]) => {
    calls.push(part);
    if (calls.length > outageAfter) throw new Error("connection terminated");
    if (part.some((item) => poisoned.has(item))) throw dataError;
    return part.length;
  };
  return { commit, calls };
}

describe("commitIsolating", () => {
  it("commits everything but the poisoned items, which fail alone; never more than 2n − 1 statements", () => {
    const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
    return fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200 }).chain((n) => fc.tuple(fc.constant(n), fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }))),
        async ([n, bad]) => {
          const items = Array.from({ length: n }, (_, i) => i);
          const { commit, calls } = committer(new Set(bad));
          const parts = await commitIsolating(items, commit, { isolable });
          const committed = parts.flatMap((part) => (part.ok ? part.items : []));
          const refused = parts.flatMap((part) => (!part.ok && part.isolated ? part.items : []));
          expect(committed.sort((a, b) => a - b)).toEqual(items.filter((i) => !bad.includes(i)));
          expect(refused.sort((a, b) => a - b)).toEqual([...bad].sort((a, b) => a - b));
          expect(calls.length).toBeLessThanOrEqual(2 * n - 1);
        },
      ),
      { seed, numRuns: 300 },
    );
  });

  it("keeps a group together: the other groups clear in a few large parts", async () => {
    // Arrival order interleaves the tenants; the poisoned tenant is "b".
    const items = Array.from({ length: 64 }, (_, i) => i);
    const groupOf = (item: number) => (item % 4 === 0 ? "b" : "a");
    const { commit, calls } = committer(new Set(items.filter((item) => groupOf(item) === "b")));
    const parts = await commitIsolating(items, commit, { isolable, groupOf });
    expect(parts.filter((part) => !part.ok && part.isolated)).toHaveLength(16);
    expect(parts.filter((part) => part.ok).flatMap((part) => part.items)).toHaveLength(48);
    // Ungrouped, each of the 16 poisoned items would sit in a different part at every level.
    expect(calls.length).toBeLessThanOrEqual(40);
  });

  it("stops splitting at the first outage: the rest fails with it, unsent", async () => {
    const items = Array.from({ length: 32 }, (_, i) => i);
    const { commit, calls } = committer(new Set([3]), 2);
    const parts = await commitIsolating(items, commit, { isolable });
    expect(calls).toHaveLength(3);
    expect(parts.every((part) => !part.ok)).toBe(true);
    expect(parts.flatMap((part) => part.items).sort((a, b) => a - b)).toEqual(items);
    expect(parts.some((part) => !part.ok && part.isolated)).toBe(false);
  });

  it("does not split on an outage at all", async () => {
    const { commit, calls } = committer(new Set(), 0);
    const parts = await commitIsolating([1, 2, 3, 4], commit, { isolable });
    expect(calls).toHaveLength(1);
    expect(parts).toEqual([{ items: [1, 2, 3, 4], ok: false, error: expect.any(Error), isolated: false }]);
  });
});
