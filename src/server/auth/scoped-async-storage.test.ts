import { describe, expect, it } from "vitest";
import { installScopedAuthStorages, ScopedAsyncLocalStorage } from "./scoped-async-storage";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("ScopedAsyncLocalStorage", () => {
  it("keeps each run's store across awaits, also when runs overlap, and is inactive once the last settles", async () => {
    const storage = new ScopedAsyncLocalStorage<string>();
    const seen: string[] = [];
    const request = (name: string, waits: number) =>
      storage.run(name, async () => {
        for (let i = 0; i < waits; i++) {
          await tick();
          seen.push(`${name}:${storage.getStore()}`);
        }
        return name;
      });
    const first = request("a", 3);
    const second = request("b", 1);
    expect(storage.active).toBe(true);
    expect(await second).toBe("b");
    expect(storage.active).toBe(true);
    expect(await first).toBe("a");
    expect(seen.sort()).toEqual(["a:a", "a:a", "a:a", "b:b"]);
    expect(storage.active).toBe(false);
    expect(storage.getStore()).toBeUndefined();
  });

  it("nests, answers synchronous results, and leaves on a throw or a rejection", async () => {
    const storage = new ScopedAsyncLocalStorage<number>();
    expect(storage.run(1, () => storage.run(2, () => storage.getStore()))).toBe(2);
    expect(() =>
      storage.run(1, () => {
        throw new Error("sync");
      }),
    ).toThrow("sync");
    await expect(
      storage.run(1, async () => {
        await tick();
        throw new Error("async");
      }),
    ).rejects.toThrow("async");
    expect(storage.active).toBe(false);
  });
});

describe("installScopedAuthStorages", () => {
  it("puts scoped storages where better-auth looks for its own, once", () => {
    const installed = installScopedAuthStorages();
    const context = (globalThis as unknown as Record<symbol, { context: Record<string, unknown> }>)[Symbol.for("better-auth:global")].context;
    expect(installed).toHaveLength(3);
    expect([context.endpointContextAsyncStorage, context.requestStateAsyncStorage, context.adapterAsyncStorage]).toEqual(installed);
    expect(installScopedAuthStorages()).toEqual(installed);
  });
});
