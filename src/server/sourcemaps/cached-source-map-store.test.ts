import { describe, expect, it } from "vitest";
import { artifactOf, MemorySourceMapStore } from "../../../test/helpers/memory-source-map-store";
import { cachedSourceMapStore, STORE_ANSWER_TTL_MS } from "./cached-source-map-store";

const PROJECT = "p1";
const OTHER = "p2";

describe("cachedSourceMapStore", () => {
  it("asks the store once per answer within the TTL, again after it, and at once for a forgotten project", async () => {
    let clock = 0;
    const inner = new MemorySourceMapStore();
    const store = cachedSourceMapStore(inner, () => clock);
    expect(await store.findByDebugId(PROJECT, "AB")).toBeUndefined();
    expect(await store.findByDebugId(PROJECT, "ab")).toBeUndefined();
    await store.hasRelease(OTHER, "1.0", null);
    expect(inner.calls).toEqual(["debugId AB", "release 1.0"]);

    // An upload lands: this process forgets the project's answers, and only that project's.
    const map = artifactOf('{"version":3,"sources":[],"names":[],"mappings":""}');
    inner.addDebugId(PROJECT, "ab", { sourceMap: map });
    store.forget([PROJECT]);
    expect((await store.findByDebugId(PROJECT, "ab"))?.sourceMap).toBe(map);
    await store.hasRelease(OTHER, "1.0", null);
    expect(inner.calls).toEqual(["debugId AB", "release 1.0", "debugId ab"]);

    // Another replica's upload is seen once the answer is older than the TTL.
    clock += STORE_ANSWER_TTL_MS + 1;
    await store.hasRelease(OTHER, "1.0", null);
    expect(inner.calls.at(-1)).toBe("release 1.0");
    expect(inner.calls).toHaveLength(4);
  });

  it("does not keep a failed answer, nor one that was running when its project was forgotten", async () => {
    const inner = new MemorySourceMapStore();
    let fail = true;
    const failing = {
      ...inner,
      findByDebugId: async (projectId: string, debugId: string) => {
        if (fail) throw new Error("database down");
        return inner.findByDebugId(projectId, debugId);
      },
      findByUrl: inner.findByUrl.bind(inner),
      hasRelease: inner.hasRelease.bind(inner),
    };
    const store = cachedSourceMapStore(failing);
    await expect(store.findByDebugId(PROJECT, "ab")).rejects.toThrow("database down");
    fail = false;
    expect(await store.findByDebugId(PROJECT, "ab")).toBeUndefined();

    const running = store.findByUrl(PROJECT, "1.0", null, "~/app.js");
    store.forget([PROJECT]);
    await running;
    await store.findByUrl(PROJECT, "1.0", null, "~/app.js");
    expect(inner.calls.filter((call) => call === "url ~/app.js")).toHaveLength(2);
  });
});
