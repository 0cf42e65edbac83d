/**
 * Battery A1: property tests of the envelope parser (no HTTP).
 *  - valid generated envelopes round-trip: every header, item header and payload byte comes back;
 *  - arbitrary bytes and mutated valid envelopes never throw out of the parser: always a typed result.
 * 10,000 cases per property (PROPERTY_RUNS=<n> for fewer while iterating; CI runs the full count),
 * each test's timeout proportional to its cases. The seed is printed; rerun a failure with FC_SEED=<seed>.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EVENT_LIKE_ITEM_TYPES, KNOWN_ITEM_TYPES, LENIENT_JSON_ITEM_TYPES, parseEnvelope } from "../../src/server/ingest/sentry/envelope.parser";
import { INGEST_ERROR_STATUS } from "../../src/server/ingest/http/ingest-error";
import { propertyRuns, propertyTimeoutMs } from "../helpers/property-budget";

const NUM_RUNS = propertyRuns(process.env.PROPERTY_RUNS);
const TIMEOUT = propertyTimeoutMs(NUM_RUNS);
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`envelope-parser.property: fast-check seed ${seed} (rerun with FC_SEED=${seed})`);
const params = { seed, numRuns: NUM_RUNS };

const NEWLINE = 0x0a;
const json = fc.jsonValue({ maxDepth: 4, stringUnit: "binary" });
const jsonObject = fc.dictionary(fc.string({ unit: "binary", maxLength: 12 }), json, { maxKeys: 6 });
const hexId = fc.uuid().map((u) => u.replaceAll("-", ""));

const envelopeHeader = fc
  .record(
    {
      event_id: hexId,
      dsn: fc.constant("https://e2e0f1c7e0ee0000000000000000000a@example.test/42"),
      sent_at: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      sdk: fc.record({ name: fc.string(), version: fc.string() }),
    },
    { requiredKeys: [] },
  )
  // Extra keys an SDK might add; a random `event_id` would be (rightly) rejected, so it is left out.
  .chain((known) => jsonObject.filter((extra) => !("event_id" in extra)).map((extra) => ({ ...extra, ...known })))
  // `__proto__` as a JSON key is data after JSON.parse but not in an object literal: skip it.
  .filter((h) => !Object.keys(h).includes("__proto__"));

type GeneratedItem = { headers: Record<string, unknown>; payload: Buffer; json?: unknown };

const itemType = fc.oneof(
  fc.constantFrom(...KNOWN_ITEM_TYPES),
  fc.stringMatching(/^[a-z_]{1,16}$/).filter((t) => !KNOWN_ITEM_TYPES.has(t)),
);

const item: fc.Arbitrary<GeneratedItem> = fc
  .record({ type: itemType, withLength: fc.boolean(), contentType: fc.option(fc.constantFrom("application/json", "text/plain")) })
  .chain(({ type, withLength, contentType }) => {
    const payload: fc.Arbitrary<{ bytes: Buffer; json?: unknown }> = EVENT_LIKE_ITEM_TYPES.has(type)
      ? jsonObject.map((value) => ({ bytes: Buffer.from(JSON.stringify(value)), json: JSON.parse(JSON.stringify(value)) }))
      : LENIENT_JSON_ITEM_TYPES.has(type)
        ? json.map((value) => ({ bytes: Buffer.from(JSON.stringify(value)), json: JSON.parse(JSON.stringify(value)) }))
        : fc.uint8Array({ maxLength: 64 }).map((b) => ({ bytes: Buffer.from(b) }));
    return payload.map(({ bytes, json: value }) => {
      // Without `length` a payload ends at the first newline, so only length-framed ones may hold one.
      const framed = withLength || bytes.includes(NEWLINE);
      const headers: Record<string, unknown> = { type, ...(framed ? { length: bytes.length } : {}) };
      if (contentType) headers.content_type = contentType;
      return { headers, payload: bytes, ...(value === undefined ? {} : { json: value }) };
    });
  });

const envelope = fc.record({
  header: envelopeHeader,
  items: fc.array(item, { maxLength: 12 }),
  trailingNewline: fc.boolean(),
});

function serialize(env: { header: object; items: GeneratedItem[]; trailingNewline: boolean }): Buffer {
  const parts: Buffer[] = [Buffer.from(JSON.stringify(env.header))];
  for (const it of env.items) {
    parts.push(Buffer.from(`\n${JSON.stringify(it.headers)}\n`), it.payload);
  }
  if (env.trailingNewline) parts.push(Buffer.from("\n"));
  return Buffer.concat(parts);
}

function expectTypedResult(bytes: Uint8Array) {
  let result: ReturnType<typeof parseEnvelope>;
  try {
    result = parseEnvelope(Buffer.from(bytes));
  } catch (error) {
    throw new Error(`parser threw: ${String(error)}`);
  }
  if (result.ok) {
    expect(Array.isArray(result.envelope.items)).toBe(true);
  } else {
    expect(Object.keys(INGEST_ERROR_STATUS)).toContain(result.error.code);
    expect(typeof result.error.message).toBe("string");
  }
}

// Mutations that keep most of the structure, so the parser gets deep into broken envelopes.
const mutation = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), count: fc.integer({ min: 1, max: 16 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("newline" as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(bytes: Buffer, m: Mutation): Buffer {
  if (bytes.length === 0) return bytes;
  const at = m.at % bytes.length;
  switch (m.kind) {
    case "flip": {
      const copy = Buffer.from(bytes);
      copy[at] = m.byte;
      return copy;
    }
    case "insert":
      return Buffer.concat([bytes.subarray(0, at), m.bytes, bytes.subarray(at)]);
    case "delete":
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.count)]);
    case "truncate":
      return bytes.subarray(0, at);
    case "newline":
      return Buffer.concat([bytes.subarray(0, at), Buffer.from("\n"), bytes.subarray(at)]);
  }
}

describe("envelope parser properties (battery A1)", { timeout: TIMEOUT }, () => {
  it(`round-trips ${NUM_RUNS} valid generated envelopes`, () => {
    fc.assert(
      fc.property(envelope, (env) => {
        const result = parseEnvelope(serialize(env), { maxItems: 100 });
        if (!result.ok) throw new Error(`rejected a valid envelope: ${result.error.code} ${result.error.message}`);
        const expectedHeader = JSON.parse(JSON.stringify(env.header));
        expect(result.envelope.header.raw).toEqual(expectedHeader);
        expect(result.envelope.header.eventId).toBe(expectedHeader.event_id ?? null);
        expect(result.envelope.items).toHaveLength(env.items.length);
        env.items.forEach((generated, i) => {
          const parsed = result.envelope.items[i];
          expect(parsed.headers).toEqual(generated.headers);
          expect(parsed.type).toBe(generated.headers.type);
          expect(parsed.payload.equals(generated.payload)).toBe(true);
          expect(parsed.skipped).toBe(!KNOWN_ITEM_TYPES.has(parsed.type));
          if (generated.json !== undefined) expect(parsed.json).toEqual(generated.json);
        });
      }),
      params,
    );
  });

  it(`never throws on ${NUM_RUNS} arbitrary byte strings`, () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => expectTypedResult(bytes)),
      params,
    );
  });

  it(`never throws on ${NUM_RUNS} arbitrary line-structured inputs`, () => {
    const line = fc.oneof(
      json.map((v) => JSON.stringify(v)),
      fc.string({ unit: "binary", maxLength: 40 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => expectTypedResult(Buffer.from(lines.join("\n")))),
      params,
    );
  });

  it(`never throws on ${NUM_RUNS} mutated valid envelopes`, () => {
    fc.assert(
      fc.property(envelope, fc.array(mutation, { minLength: 1, maxLength: 4 }), (env, mutations) => {
        expectTypedResult(mutations.reduce(mutate, serialize(env)));
      }),
      params,
    );
  });
});
