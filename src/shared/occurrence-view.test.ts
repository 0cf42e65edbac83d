import { describe, expect, it } from "vitest";
import { readOccurrence } from "./occurrence-view";

describe("readOccurrence", () => {
  it("reads a stored occurrence", () => {
    const view = readOccurrence({
      message: "boom",
      exceptions: [
        { type: "Cause", value: "inner", frames: [], mechanism: { type: "chained", handled: null, synthetic: false } },
        {
          type: "Thrown",
          value: "outer",
          mechanism: { type: "onerror", handled: false },
          frames: [{ filename: "a.js", function: "f", lineno: 3, colno: 1, inApp: true, contextLine: "x()", preContext: ["a", "b"], postContext: ["c"] }],
        },
      ],
      request: { url: "https://example.com", method: "GET", query: "a=1", headers: { Accept: "*/*" }, clientIp: "203.0.113.1" },
      user: { id: "u1", email: null, username: null, ip: null },
      tags: { region: "eu" },
      contexts: { os: { name: "Linux" } },
      breadcrumbs: [{ timestamp: "2026-01-01T00:00:00Z", category: "http", message: "GET /", level: "info", type: "http", data: { status: 200 } }],
      sdk: { name: "sentry.javascript.node", version: "11.12.0" },
      extra: { a: 1 },
    });
    expect(view.exceptions.map((exception) => exception.type)).toEqual(["Cause", "Thrown"]);
    expect(view.exceptions[1].mechanism).toMatchObject({ type: "onerror", handled: false, synthetic: false, isExceptionGroup: false });
    expect(view.exceptions[1].frames[0]).toMatchObject({ function: "f", lineno: 3, inApp: true, preContext: ["a", "b"], postContext: ["c"] });
    expect(view.request?.headers).toEqual([["Accept", "*/*"]]);
    expect(view.user).toEqual({ id: "u1", email: null, username: null, ip: null, name: null, geo: [], data: [] });
    expect(view.tags).toEqual([["region", "eu"]]);
    expect(view.contexts).toEqual([["os", { name: "Linux" }]]);
    expect(view.breadcrumbs).toHaveLength(1);
    expect(view.sdk).toEqual({ name: "sentry.javascript.node", version: "11.12.0" });
  });

  it("reads a mapped frame's minified original and each frame's symbolication, dropping unknown states", () => {
    const view = readOccurrence({
      exceptions: [
        {
          type: "TypeError",
          frames: [
            {
              filename: "src/price.ts",
              function: "renderPrice",
              lineno: 12,
              colno: 5,
              raw: { filename: "bundle.js", function: "a", lineno: 1, colno: 8195 },
              symbolication: "mapped",
            },
            { filename: "bundle.js", function: "b", lineno: 1, colno: 10, symbolication: "bundle_not_found" },
            { filename: "bundle.js", function: "c", lineno: 1, colno: 11, raw: "bundle.js", symbolication: "made_up" },
            { filename: "main.py", function: "run", lineno: 3 },
          ],
        },
      ],
    });
    const frames = view.exceptions[0].frames;
    expect(frames[0]).toMatchObject({
      function: "renderPrice",
      raw: { filename: "bundle.js", function: "a", lineno: 1, colno: 8195 },
      symbolication: "mapped",
    });
    expect(frames[1]).toMatchObject({ raw: null, symbolication: "bundle_not_found" });
    expect(frames[2]).toMatchObject({ raw: null, symbolication: null });
    expect(frames[3]).toMatchObject({ raw: null, symbolication: null });
  });

  it("reads the native, thread, module and debug-image fields ingest keeps", () => {
    const view = readOccurrence({
      exceptions: [
        {
          type: "SIGSEGV",
          frames: [{ instructionAddr: "0x10", package: "/lib/libfoo.so", vars: { a: 1 } }],
          mechanism: { synthetic: true, helpLink: "https://h" },
        },
      ],
      threads: [{ id: "1", name: "main", crashed: true, frames: [{ function: "f" }] }, { id: 2 }, "junk"],
      debugImages: [{ name: "/lib/libfoo.so", address: "0x0", size: 4096, debugId: "d" }, null],
      modules: { serde: "1.0.1" },
      dist: "7",
      location: "0x10 in libfoo.so",
      originalTimestamp: "2018-01-01T00:00:00.000Z",
      timestampAdjustment: "past_timestamp",
      request: { cookies: { sid: "[Filtered]" }, data: { a: 1 }, env: { SERVER_NAME: "web" } },
      user: { name: "Ada", geo: { city: "Vienna" } },
    });
    expect(view.exceptions[0].frames[0]).toMatchObject({ instructionAddr: "0x10", package: "/lib/libfoo.so", vars: [["a", 1]] });
    expect(view.exceptions[0].mechanism).toMatchObject({ synthetic: true, helpLink: "https://h" });
    expect(view.threads.map((thread) => [thread.id, thread.crashed, thread.frames.length])).toEqual([
      ["1", true, 1],
      ["2", false, 0],
    ]);
    expect(view.debugImages).toEqual([{ type: null, name: "/lib/libfoo.so", address: "0x0", size: 4096, debugId: "d", arch: null }]);
    expect(view.modules).toEqual([["serde", "1.0.1"]]);
    expect([view.dist, view.location, view.originalTimestamp, view.timestampAdjustment]).toEqual([
      "7",
      "0x10 in libfoo.so",
      "2018-01-01T00:00:00.000Z",
      "past_timestamp",
    ]);
    expect(view.request).toMatchObject({ cookies: [["sid", "[Filtered]"]], data: { a: 1 }, env: [["SERVER_NAME", "web"]] });
    expect(view.user).toMatchObject({ name: "Ada", geo: [["city", "Vienna"]] });
  });

  it("drops values of the wrong type instead of trusting them", () => {
    const view = readOccurrence({
      message: { toString: "x" },
      exceptions: [null, "text", { type: ["array"], value: 42, frames: [{ function: {}, lineno: "12", inApp: "yes", preContext: "no" }, 7] }],
      request: [],
      user: { id: null, email: null },
      tags: [["k", "v"], ["broken"], "x"],
      contexts: "nope",
      breadcrumbs: { values: [] },
      sdk: "sentry",
      extra: null,
    });
    expect(view.message).toBeNull();
    expect(view.exceptions).toHaveLength(1);
    expect(view.exceptions[0]).toMatchObject({ type: null, value: "42" });
    expect(view.exceptions[0].frames).toEqual([
      {
        filename: null,
        absPath: null,
        function: null,
        module: null,
        lineno: null,
        colno: null,
        inApp: false,
        contextLine: null,
        preContext: [],
        postContext: [],
        instructionAddr: null,
        package: null,
        vars: [],
        raw: null,
        symbolication: null,
      },
    ]);
    expect(view.request).toBeNull();
    expect(view.user).toBeNull();
    expect(view.tags).toEqual([["k", "v"]]);
    expect(view.contexts).toEqual([]);
    expect(view.breadcrumbs).toEqual([]);
    expect(view.sdk).toBeNull();
    expect(view.extra).toEqual([]);
  });
});
