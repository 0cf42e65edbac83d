import { describe, expect, it } from "vitest";
import { loadCaptures, loadExpected, type SdkFolder } from "../../../test/helpers/sdk-fixtures";
import { replayThroughPipeline } from "../../../test/helpers/sdk-pipeline";
import { normalizeSentryEvent } from "../ingest/normalize/event.normalizer";
import type { NormalizedOccurrence } from "../../shared/occurrence.types";
import { computeGrouping, GROUPING_VERSION, hashComponents, type Grouping } from "./fingerprint.v1";

async function groupFolder(folder: SdkFolder): Promise<Map<string, { occ: NormalizedOccurrence; grouping: Grouping }[]>> {
  const byFile = new Map<string, { occ: NormalizedOccurrence; grouping: Grouping }[]>();
  for (const capture of loadCaptures(folder)) {
    const { payload } = await replayThroughPipeline(capture);
    byFile.set(
      capture.file,
      payload.occurrences.map((occ) => ({ occ, grouping: computeGrouping(occ) })),
    );
  }
  return byFile;
}

/** A real event (node 002, handled TypeError) as raw JSON, to derive variations from. */
async function realEvent(file = "002-handled-event.json", folder: SdkFolder = "node"): Promise<Record<string, unknown>> {
  const capture = loadCaptures(folder).find((c) => c.file === file)!;
  const { payload, decoded } = await replayThroughPipeline(capture);
  return (payload.envelope ? payload.envelope.items[0].json : JSON.parse(decoded.toString("utf8"))) as Record<string, unknown>;
}

type Frame = Record<string, unknown>;
function mapFrames(event: Record<string, unknown>, fn: (frame: Frame, index: number) => Frame): Record<string, unknown> {
  const exception = event.exception as { values: { stacktrace: { frames: Frame[] } }[] };
  return {
    ...event,
    exception: {
      values: exception.values.map((v) => ({ ...v, stacktrace: { ...v.stacktrace, frames: v.stacktrace.frames.map(fn) } })),
    },
  };
}
const fingerprintOf = (event: unknown) => computeGrouping(normalizeSentryEvent(event)).fingerprint;

describe.each<[SdkFolder, number]>([
  ["node", 8],
  ["python", 11],
])("grouping of the %s captures (expected.json)", (folder, issueCount) => {
  const expected = loadExpected(folder);

  it(`yields exactly ${issueCount} issues, grouped and titled as expected`, async () => {
    const byFile = await groupFolder(folder);
    expect(expected.issues).toHaveLength(issueCount);

    const fingerprintOfFile = (file: string) => {
      const groups = byFile.get(file)!;
      expect(groups, file).toHaveLength(1);
      return groups[0].grouping.fingerprint;
    };
    // Same issue inside each expected group...
    const issueFingerprints = expected.issues.map((issue) => {
      const prints = new Set(issue.files.map(fingerprintOfFile));
      expect(prints.size, `${issue.scenario}: ${issue.files.join(", ")}`).toBe(1);
      return [...prints][0];
    });
    // ...and pairwise different issues.
    expect(new Set(issueFingerprints).size).toBe(issueCount);

    // Files without error events create no issue; overall distinct count is exact.
    const all = [...byFile.values()].flat();
    expect(new Set(all.map((g) => g.grouping.fingerprint)).size).toBe(issueCount);
    for (const [file, spec] of Object.entries(expected.files)) {
      expect(byFile.get(file)!.length, file).toBe(spec.events.length);
      byFile.get(file)!.forEach(({ occ, grouping }, i) => {
        const want = spec.events[i];
        expect(grouping.title, file).toBe(want.title);
        expect(occ.level, file).toBe(want.level);
        expect(occ.environment, file).toBe(want.environment);
        expect(occ.handled, file).toBe(want.handled);
        expect(occ.user?.id ?? null, file).toBe(want.user_id);
        expect(grouping.version).toBe(GROUPING_VERSION);
        expect(grouping.fingerprint).toBe(hashComponents(grouping.components));
      });
    }
  });
});

describe("computeGrouping", () => {
  it("titles the node message event with its message despite the typeless synthetic exception", async () => {
    const grouping = computeGrouping(normalizeSentryEvent(await realEvent("016-message-event.json")));
    expect(grouping.title).toBe("Payment provider timeout after 30s");
    expect(grouping.components).toEqual(["message:Payment provider timeout after <num>s"]);
  });

  it("names the culprit the way each platform reads it", async () => {
    const node = computeGrouping(normalizeSentryEvent(await realEvent()));
    expect(node.culprit).toBe("chargeCard (/opt/sdkapp/node/generate.mjs)");
    const python = computeGrouping(normalizeSentryEvent(await realEvent("001-handled-store.json", "python")));
    expect(python.culprit).toBe("__main__ in charge_card");
  });

  it("ignores line and column numbers: a shifted stack keeps its fingerprint", async () => {
    const event = await realEvent();
    const shifted = mapFrames(event, (f) => ({ ...f, lineno: Number(f.lineno) + 17, colno: 1, pre_context: [], context_line: "changed" }));
    expect(fingerprintOf(shifted)).toBe(fingerprintOf(event));
  });

  it("separates different in-app functions", async () => {
    const event = await realEvent();
    const renamed = mapFrames(event, (f) => (f.function === "chargeCard" ? { ...f, function: "chargeWallet" } : f));
    expect(fingerprintOf(renamed)).not.toBe(fingerprintOf(event));
  });

  it("does not look at library frames when in-app frames exist", async () => {
    const event = await realEvent();
    const otherLibs = mapFrames(event, (f) => (f.in_app ? f : { ...f, function: "somethingElse", module: "other" }));
    expect(fingerprintOf(otherLibs)).toBe(fingerprintOf(event));
  });

  it("uses all frames when none is in-app", async () => {
    const event = mapFrames(await realEvent(), (f) => ({ ...f, in_app: false }));
    const otherLibs = mapFrames(event, (f, i) => (i === 0 ? { ...f, function: "somethingElse" } : f));
    expect(fingerprintOf(otherLibs)).not.toBe(fingerprintOf(event));
  });

  it("survives a new build: hashed, versioned and prefixed file names normalise away", async () => {
    const event = await realEvent();
    // Browser SDKs send no module: the file name alone locates the frame.
    const browser = (file: string) => mapFrames(event, (f) => ({ ...f, module: undefined, filename: file, abs_path: file }));
    const a = browser("https://cdn.example.com/assets/index-CtWK0fHM.js?v=1");
    const b = browser("https://cdn.example.com/assets/index-B9x0LmQa.js?v=2");
    expect(fingerprintOf(a)).toBe(fingerprintOf(b));
    const c = browser("webpack:///./node_modules/.pnpm/lib@1.2.3/node_modules/lib/dist/x.js");
    const d = browser("webpack:///./node_modules/.pnpm/lib@1.2.4/node_modules/lib/dist/x.js");
    expect(fingerprintOf(c)).toBe(fingerprintOf(d));
  });

  it("lets the event's own fingerprint win over the stack", async () => {
    const event = await realEvent();
    const a = { ...event, fingerprint: ["payment-gateway", "timeout"] };
    const b = {
      ...mapFrames(event, (f) => ({ ...f, function: "elsewhere" })),
      exception: { values: [{ type: "Other", value: "x" }] },
      fingerprint: ["payment-gateway", "timeout"],
    };
    expect(fingerprintOf(a)).toBe(fingerprintOf(b));
    expect(computeGrouping(normalizeSentryEvent(a)).components).toEqual(["custom:payment-gateway", "custom:timeout"]);
  });

  it("expands {{ default }} and {{default}} to the default components", async () => {
    const event = await realEvent();
    const plain = computeGrouping(normalizeSentryEvent(event));
    expect(fingerprintOf({ ...event, fingerprint: ["{{ default }}"] })).toBe(plain.fingerprint);
    const tenantA = computeGrouping(normalizeSentryEvent({ ...event, fingerprint: ["{{default}}", "tenant-a"] }));
    expect(tenantA.components).toEqual([...plain.components, "custom:tenant-a"]);
    expect(tenantA.fingerprint).not.toBe(fingerprintOf({ ...event, fingerprint: ["{{ default }}", "tenant-b"] }));
  });

  it("without a stack, groups by type plus the normalised value", () => {
    const at = (type: string, value: string) => fingerprintOf({ exception: { values: [{ type, value }] } });
    expect(at("OrderNotFound", "Order 1234 not found")).toBe(at("OrderNotFound", "Order 98 not found"));
    expect(at("OrderNotFound", "Order 1234 not found")).not.toBe(at("OtherError", "Order 1234 not found"));
    expect(at("E", "user 3f2a1b9c-0d4e-4f5a-8b6c-7d8e9f0a1b2c from 10.0.0.1 failed")).toBe(
      at("E", "user 00000000-1111-2222-3333-444444444444 from 192.168.1.20 failed"),
    );
  });

  it("groups messages by their template, else by the normalised message", () => {
    const logentry = (params: string[]) => fingerprintOf({ logentry: { message: "Order %s not found", params } });
    expect(logentry(["1"])).toBe(logentry(["2"]));
    expect(fingerprintOf({ message: "timeout after 30s" })).toBe(fingerprintOf({ message: "timeout after 45s" }));
    expect(fingerprintOf({ message: "timeout after 30s" })).not.toBe(fingerprintOf({ message: "disk full" }));
    expect(computeGrouping(normalizeSentryEvent({})).title).toBe("<unlabeled event>");
  });
});
