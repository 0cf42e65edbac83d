/**
 * Events come from every SDK version ever shipped: whatever JSON arrives, normalising and grouping
 * it must either work or fail with a typed IngestError — never a TypeError that would become a 5xx.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeGrouping } from "../../grouping/fingerprint.v1";
import { normalizeSentryEvent } from "./event.normalizer";
import { IngestError } from "../http/ingest-error";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`event.normalizer.property: fast-check seed ${seed} (rerun with FC_SEED=${seed})`);

const json = fc.jsonValue({ maxDepth: 3 });
const loose = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, json);

const frame = loose(
  fc.record(
    {
      filename: json,
      abs_path: json,
      function: json,
      module: json,
      lineno: json,
      colno: json,
      in_app: json,
      context_line: json,
      pre_context: json,
      vars: json,
    },
    { requiredKeys: [] },
  ),
);
const exception = loose(
  fc.record(
    {
      type: json,
      value: json,
      module: json,
      mechanism: loose(fc.record({ type: json, handled: json, synthetic: json }, { requiredKeys: [] })),
      stacktrace: loose(fc.record({ frames: loose(fc.array(frame, { maxLength: 5 })) })),
    },
    { requiredKeys: [] },
  ),
);
const event = fc.record(
  {
    event_id: fc.oneof(fc.uuid(), json),
    timestamp: json,
    level: json,
    platform: json,
    environment: json,
    release: json,
    message: loose(fc.record({ message: json, formatted: json, params: json }, { requiredKeys: [] })),
    logentry: loose(fc.record({ message: fc.string(), params: json }, { requiredKeys: [] })),
    exception: loose(fc.oneof(fc.record({ values: loose(fc.array(exception, { maxLength: 3 })) }), fc.array(exception, { maxLength: 3 }))),
    request: loose(fc.record({ url: json, method: json, query_string: json, headers: json, env: json }, { requiredKeys: [] })),
    user: loose(fc.record({ id: json, email: json, ip_address: json }, { requiredKeys: [] })),
    tags: json,
    contexts: json,
    breadcrumbs: loose(fc.record({ values: json })),
    extra: json,
    fingerprint: json,
    threads: json,
    stacktrace: json,
  },
  { requiredKeys: [] },
);

describe("normalizeSentryEvent + computeGrouping on arbitrary event-shaped JSON", () => {
  it("never throw anything but IngestError (5,000 cases)", () => {
    fc.assert(
      fc.property(event, (input) => {
        try {
          const occ = normalizeSentryEvent(input);
          const grouping = computeGrouping(occ);
          expect(grouping.fingerprint).toMatch(/^[0-9a-f]{64}$/);
          expect(typeof grouping.title).toBe("string");
        } catch (error) {
          if (!(error instanceof IngestError)) throw error;
          expect(error.status).toBe(400);
        }
      }),
      { seed, numRuns: 5_000 },
    );
  });
});
