import { describe, expect, it } from "vitest";
import { loadCaptures, loadExpected, type SdkFolder } from "../../../test/helpers/sdk-fixtures";
import { replayThroughPipeline } from "../../../test/helpers/sdk-pipeline";
import { normalizeSentryEvent } from "../ingest/normalize/event.normalizer";
import { computeGroupingV2, GROUPING_VERSION_V2 } from "./fingerprint.v2";

const v2 = (event: unknown) => computeGroupingV2(normalizeSentryEvent(event));
const frame = (fn: string, line: string | null, inApp = true, module = "app") => ({
  function: fn,
  module,
  in_app: inApp,
  lineno: 10,
  context_line: line ?? undefined,
});
const thrown = (type: string, value: string, frames: unknown[], extra: Record<string, unknown> = {}) => ({
  platform: "node",
  ...extra,
  exception: { values: [{ type, value, stacktrace: { frames } }] },
});

describe.each<[SdkFolder, number]>([
  ["node", 8],
  ["python", 11],
])("the %s fixture replays under v2 (expected.json)", (folder, issueCount) => {
  it(`still give exactly ${issueCount} issues, grouped as expected`, async () => {
    const expected = loadExpected(folder);
    const byFile = new Map<string, string[]>();
    for (const capture of loadCaptures(folder)) {
      const { payload } = await replayThroughPipeline(capture);
      byFile.set(
        capture.file,
        payload.occurrences.map((occ) => computeGroupingV2(occ).fingerprint),
      );
    }
    const issuePrints = expected.issues.map((issue) => {
      const prints = new Set(issue.files.flatMap((file) => byFile.get(file)!));
      expect(prints.size, issue.files.join(", ")).toBe(1);
      return [...prints][0];
    });
    expect(new Set(issuePrints).size).toBe(issueCount);
    expect(new Set([...byFile.values()].flat()).size).toBe(issueCount);
  });
});

describe("computeGroupingV2", () => {
  const parse = frame("parseAmount", "const text = input.amount.trim();");
  it("groups one defect reached by several callers, through a new wrapper frame", () => {
    const a = v2(thrown("TypeError", "x", [frame("checkoutRoute", "parseAmount(body)"), parse]));
    const b = v2(thrown("TypeError", "x", [frame("main", "run()"), frame("refundRoute", "parseAmount(b)"), parse]));
    const c = v2(thrown("TypeError", "x", [frame("checkoutRoute", "parseAmount(body)"), frame("timedRoute", "return fn(...args);"), parse]));
    expect(new Set([a.fingerprint, b.fingerprint, c.fingerprint]).size).toBe(1);
    expect(a.version).toBe(GROUPING_VERSION_V2);
    expect(a.parts).toEqual({ exceptionType: "TypeError", crashFrame: "app|parseAmount", messageTemplate: "x" });
  });

  it("tells two throws in one function apart by their source line, or without source by their message", () => {
    const empty = frame("validateOrder", "if (order.items.length === 0) throw new ValidationError(`no items`);");
    const negative = frame("validateOrder", "if (order.total < 0) throw new ValidationError(`negative`);");
    expect(v2(thrown("ValidationError", "Order 1 has no items", [empty])).fingerprint).not.toBe(
      v2(thrown("ValidationError", "Order 1 has no items", [negative])).fingerprint,
    );
    const bare = frame("validateOrder", null);
    expect(v2(thrown("ValidationError", "Order 12 has no items", [bare])).fingerprint).toBe(
      v2(thrown("ValidationError", "Order 9 has no items", [bare])).fingerprint,
    );
    expect(v2(thrown("ValidationError", "Order 12 has no items", [bare])).fingerprint).not.toBe(
      v2(thrown("ValidationError", "Order 12 has a negative total", [bare])).fingerprint,
    );
  });

  it("collapses a recursion whatever its depth and the frame the overflow stopped in", () => {
    const cycle = [frame("renderCategory", "a"), frame("renderChildren", "b"), frame("map", null, false, "Array")];
    const deep = (n: number, phase: number) => [frame("main", "m"), ...Array.from({ length: n }, () => cycle).flat(), ...cycle.slice(0, phase)];
    const prints = [deep(4, 0), deep(9, 1), deep(30, 2)].map((frames) => v2(thrown("RangeError", "Maximum call stack size exceeded", frames)).fingerprint);
    expect(new Set(prints).size).toBe(1);
  });

  it("keeps unreachable services apart by target port when no frame is in-app", () => {
    const socket = [frame("TCPConnectWrap.afterConnect", null, false, "node:net")];
    const refused = (target: string) => v2(thrown("Error", `connect ECONNREFUSED ${target}`, socket)).fingerprint;
    expect(refused("127.0.0.1:6390")).toBe(refused("127.0.0.9:6390"));
    expect(refused("127.0.0.1:6390")).not.toBe(refused("127.0.0.1:5432"));
  });

  it("groups a JavaScript non-Error by its value or shape, not by the capture site", () => {
    const site = [frame("onJobRejected", "report(reason)")];
    const synthetic = (value: string, serialized?: unknown) => ({
      platform: "node",
      extra: serialized ? { __serialized__: serialized } : {},
      exception: { values: [{ type: "Error", value, mechanism: { type: "generic", synthetic: true }, stacktrace: { frames: site } }] },
    });
    const keys = "Object captured as exception with keys: code, resource";
    expect(v2(synthetic(keys, { code: "E_LOCKED", resource: "invoice/1" })).fingerprint).toBe(
      v2(synthetic(keys, { code: "E_LOCKED", resource: "invoice/2" })).fingerprint,
    );
    expect(v2(synthetic(keys, { code: "E_LOCKED" })).fingerprint).not.toBe(v2(synthetic(keys, { code: "E_QUOTA" })).fingerprint);
    expect(v2(synthetic("Stock reservation R1 timed out")).fingerprint).not.toBe(v2(synthetic("Cart C1 expired")).fingerprint);
  });

  it("groups a native crash's synthetic exception by its crashing frames: segfaults are not one issue", () => {
    const segfault = (fn: string) => ({
      platform: "native",
      exception: {
        values: [
          {
            type: "SIGSEGV",
            value: "Segfault",
            mechanism: { type: "signalhandler", synthetic: true },
            stacktrace: { frames: [frame("main", null), frame(fn, null)] },
          },
        ],
      },
    });
    expect(v2(segfault("parse_header")).fingerprint).not.toBe(v2(segfault("copy_buffer")).fingerprint);
    expect(v2(segfault("parse_header")).fingerprint).toBe(v2(segfault("parse_header")).fingerprint);
  });

  it("parameterises messages and prefers the exception over a logged template", () => {
    expect(v2({ message: "Invoice INV-2024-00359 charged 10.00 EUR in 974ms" }).components).toEqual(["message:Invoice <id> charged <num> EUR in <duration>"]);
    const logged = (id: string) => ({ ...thrown("KeyError", "'customer_id'", [parse]), logentry: { message: "Job %s failed", params: [id] } });
    expect(v2(logged("job-1")).fingerprint).toBe(v2(logged("job-2")).fingerprint);
    expect(v2(logged("job-1")).components[0]).toBe("type:KeyError");
  });

  it("lets the event's own fingerprint win, {{ default }} splicing in v2's components", () => {
    const event = thrown("TypeError", "x", [parse]);
    expect(v2({ ...event, fingerprint: ["payments"] }).components).toEqual(["custom:payments"]);
    expect(v2({ ...event, fingerprint: ["{{ default }}", "eu"] }).components).toEqual([...v2(event).components, "custom:eu"]);
  });
});
