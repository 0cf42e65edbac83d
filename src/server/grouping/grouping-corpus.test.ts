import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { score, type Score } from "../../../test/fixtures/grouping/score";
import { normalizeSentryEvent } from "../ingest/normalize/event.normalizer";
import { computeGrouping } from "./fingerprint.v1";
import { computeGroupingV2 } from "./fingerprint.v2";

/**
 * Grouping v2 against the labelled corpus of real-SDK events (test/fixtures/grouping/README.md).
 * The floors are the scores v2 reached when the corpus was made: a change that lowers them fails.
 */
const corpus: { defect: string; event: unknown }[] = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "../../../test/fixtures/grouping/corpus.json"), "utf8"),
);
const occurrences = corpus.map((item) => ({ defect: item.defect, occ: normalizeSentryEvent(item.event) }));
const scoreOf = (fingerprint: (occ: (typeof occurrences)[number]["occ"]) => string): Score =>
  score(occurrences.map(({ defect, occ }) => ({ defect, cluster: fingerprint(occ) })));

describe("grouping v2 on the labelled corpus", () => {
  const v1 = scoreOf((occ) => computeGrouping(occ).fingerprint);
  const v2 = scoreOf((occ) => computeGroupingV2(occ).fingerprint);

  it("holds every failure kind of the issue, from both SDKs", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    expect(new Set(corpus.map((c) => c.defect)).size).toBe(28);
  });

  it("reaches its measured scores (B-cubed F1 ≥ 0.99) with no over-merged issue", () => {
    expect(v2.bcubed.f1).toBeGreaterThanOrEqual(0.99);
    expect(v2.pairwise.f1).toBeGreaterThanOrEqual(0.99);
    expect(v2.overMerged).toEqual([]);
    // The one known over-split: a tenant name written into the message without quotes.
    expect(v2.overSplit).toEqual({ "py-msg-retrying-batch": 2 });
  });

  it("beats v1 on both measures and splits no group v1 kept whole", () => {
    expect(v2.pairwise.f1).toBeGreaterThan(v1.pairwise.f1);
    expect(v2.bcubed.f1).toBeGreaterThan(v1.bcubed.f1);
    const keptWholeByV1 = new Set(corpus.map((c) => c.defect).filter((d) => !(d in v1.overSplit)));
    expect(Object.keys(v2.overSplit).filter((defect) => keptWholeByV1.has(defect))).toEqual([]);
    // The v1 figures the report quotes, so they cannot drift unnoticed.
    expect(v1.bcubed.f1).toBeCloseTo(0.751, 2);
    expect(v1.pairwise.f1).toBeCloseTo(0.624, 2);
    expect(v1.overMerged).toHaveLength(5);
  });
});
