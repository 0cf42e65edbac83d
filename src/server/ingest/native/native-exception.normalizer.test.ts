import { describe, expect, it } from "vitest";
import { computeGrouping } from "../../grouping/fingerprint.v1";
import { IngestError } from "../http/ingest-error";
import { parseNativeEvent } from "./native-event.schema";
import { normalizeNativeException } from "./native-exception.normalizer";
import { parseV8Stack } from "../normalize/v8-stack.parser";

// The body documented in docs/ingest-protocol.md §2.
const DOCUMENTED = {
  environment: "PRODUCTION",
  platform: "NODE_JS",
  name: "TypeError",
  message: "Cannot read properties of undefined",
  httpContext: { url: "/users/1", method: "GET", statusCode: 500, status: "Internal Server Error", clientIp: "203.0.113.5", response: { error: "x" } },
  stacktrace: {
    stack: "TypeError: Cannot read properties of undefined\n    at bootstrap (/app/dist/main.js:10:5)",
    frames: [{ filename: "main.js", functionName: "bootstrap", lineNumber: 10, columnNumber: 5, absolutePath: "/app/dist/main.js", module: null, inApp: true }],
  },
};

function failure(fn: () => unknown): IngestError | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof IngestError) return e;
    throw e;
  }
}

describe("normalizeNativeException", () => {
  it("maps the documented body to a NormalizedOccurrence", () => {
    const receivedAt = new Date("2026-11-21T15:00:00Z");
    const occ = normalizeNativeException(DOCUMENTED, { receivedAt });
    expect(occ).toMatchObject({
      timestamp: receivedAt,
      level: "error",
      platform: "node",
      environment: "production",
      exceptions: [{ type: "TypeError", value: "Cannot read properties of undefined" }],
      request: { url: "/users/1", method: "GET", query: null, headers: {}, clientIp: "203.0.113.5" },
      user: { ip: "203.0.113.5" },
      contexts: { response: { status_code: 500, status: "Internal Server Error", body: { error: "x" } } },
    });
    expect(occ.eventId).toMatch(/^[0-9a-f]{32}$/);
    expect(occ.exceptions[0].frames).toEqual([
      {
        filename: "main.js",
        absPath: "/app/dist/main.js",
        function: "bootstrap",
        module: null,
        lineno: 10,
        colno: 5,
        inApp: true,
        contextLine: null,
        preContext: [],
        postContext: [],
      },
    ]);
    expect(computeGrouping(occ)).toMatchObject({ title: "TypeError: Cannot read properties of undefined", culprit: "bootstrap (main.js)" });
  });

  it("needs only environment, name and message", () => {
    const occ = normalizeNativeException({ environment: "STAGING", name: "Error", message: "" });
    expect(occ).toMatchObject({ environment: "staging", platform: "other", request: null, exceptions: [{ type: "Error", value: null, frames: [] }] });
  });

  it("parses the V8 stack string when frames are missing", () => {
    const occ = normalizeNativeException({ ...DOCUMENTED, stacktrace: { stack: DOCUMENTED.stacktrace.stack } });
    expect(occ.exceptions[0].frames).toMatchObject([{ filename: "main.js", function: "bootstrap", lineno: 10, colno: 5, inApp: true }]);
  });

  it.each([
    ["a non-object", "nope"],
    ["a missing name", { environment: "PRODUCTION", message: "m" }],
    ["an empty name", { environment: "PRODUCTION", name: "", message: "m" }],
    ["an unknown environment", { environment: "prod", name: "E", message: "m" }],
    ["an unknown platform", { environment: "PRODUCTION", platform: "COBOL", name: "E", message: "m" }],
    ["a non-integer line number", { ...DOCUMENTED, stacktrace: { frames: [{ lineNumber: "10" }] } }],
  ])("rejects %s with malformed (400)", (_name, body) => {
    expect(failure(() => normalizeNativeException(body))).toMatchObject({ code: "malformed", status: 400 });
  });

  it("trims an over-long message instead of rejecting it", () => {
    const occ = normalizeNativeException({ environment: "PRODUCTION", name: "E", message: "m".repeat(50_000) }, { limits: { maxStringLength: 1000 } });
    expect(occ.exceptions[0].value).toHaveLength(1000);
  });
});

describe("parseNativeEvent", () => {
  it("accepts the documented body", () => {
    expect(parseNativeEvent({ name: "purchase_completed", properties: { amount: 29.99 } })).toEqual({
      name: "purchase_completed",
      properties: { amount: 29.99 },
    });
    expect(parseNativeEvent({ name: "x" })).toEqual({ name: "x" });
  });

  it.each([{}, { name: "" }, { name: "x".repeat(201) }, { name: 5 }, { name: "x", properties: [1] }, null])("rejects %j with 400", (body) => {
    expect(failure(() => parseNativeEvent(body))).toMatchObject({ code: "malformed", status: 400 });
  });
});

describe("parseV8Stack", () => {
  it("returns frames oldest first with in-app detection", () => {
    const stack = [
      "Error: boom",
      "    at inner (/srv/app/src/users.js:12:7)",
      "    at async Promise.all (index 0)",
      "    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)",
      "    at /srv/app/src/index.js:3:1",
      "    at node:internal/main/run_main_module:28:49",
    ].join("\n");
    expect(parseV8Stack(stack).map((f) => [f.function, f.filename, f.lineno, f.inApp])).toEqual([
      [null, "run_main_module", 28, false],
      [null, "index.js", 3, true],
      ["Layer.handle [as handle_request]", "layer.js", 95, false],
      ["inner", "users.js", 12, true],
    ]);
  });

  it("copes with hostile input quickly", () => {
    const started = performance.now();
    parseV8Stack(`    at ${"(".repeat(5000)}:1:1\n`.repeat(200));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
