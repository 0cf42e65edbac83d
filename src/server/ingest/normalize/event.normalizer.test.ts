import { describe, expect, it } from "vitest";
import { loadCaptures, loadExpected, type SdkFolder } from "../../../../test/helpers/sdk-fixtures";
import { replayThroughPipeline } from "../../../../test/helpers/sdk-pipeline";
import { toEnvironmentBucket } from "../../../shared/environments";
import { normalizeSentryEvent } from "./event.normalizer";
import { IngestError } from "../http/ingest-error";
import { parseJsonBytes } from "../http/json-payload";

const RECEIVED_AT = new Date("2026-11-21T15:00:00Z");

/** The raw event JSON of a store capture, to build variations of a REAL payload. */
async function storeEvent(file: string): Promise<Record<string, unknown>> {
  const capture = loadCaptures("python").find((c) => c.file === file)!;
  const parsed = parseJsonBytes((await replayThroughPipeline(capture)).decoded, 64);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value as Record<string, unknown>;
}

function errorCode(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    return e instanceof IngestError ? e.code : "not-an-ingest-error";
  }
}

describe.each<SdkFolder>(["node", "python"])("normalising every %s capture", (folder) => {
  const expected = loadExpected(folder);

  it.each(loadCaptures(folder).map((c) => [c.file, c] as const))("%s matches expected.json", async (file, capture) => {
    const { payload } = await replayThroughPipeline(capture);
    const events = expected.files[file].events;
    expect(payload.occurrences).toHaveLength(events.length);
    payload.occurrences.forEach((occ, i) => {
      const want = events[i];
      // Synthetic exceptions (node captureMessage) carry the chain too; expected.json lists them.
      expect(occ.exceptions.map((e) => ({ type: e.type, value: e.value }))).toEqual(want.exception_chain);
      expect(occ.message).toBe(want.message);
      expect(occ.level).toBe(want.level);
      expect(occ.environment).toBe(want.environment);
      expect(occ.release).toBe(want.release);
      expect(occ.handled).toBe(want.handled);
      expect(occ.fingerprint).toEqual(want.fingerprint);
      expect(occ.user?.id ?? null).toBe(want.user_id);
      expect(occ.eventId).toMatch(/^[0-9a-f]{32}$/);
      expect(occ.platform).toBe(folder === "node" ? "node" : "python");
    });
  });
});

describe("normalizeSentryEvent details on real payloads", () => {
  it("keeps user, tags, breadcrumbs, contexts, sdk and frames of the node handled event", async () => {
    const capture = loadCaptures("node").find((c) => c.file === "002-handled-event.json")!;
    const [occ] = (await replayThroughPipeline(capture)).payload.occurrences;
    expect(occ.eventId).toBe("b071d760d2ce420a847c13668086f128");
    expect(occ.timestamp.toISOString()).toBe("2026-11-21T14:19:47.752Z");
    expect(occ.user).toEqual({ id: "u-1001", email: "ada@example.com", username: "ada", ip: "203.0.113.7" });
    expect(occ.tags).toEqual({ region: "eu-west-1", feature: "checkout" });
    expect(occ.breadcrumbs.map((b) => b.category)).toEqual(["auth", "cart", "http"]);
    expect(occ.breadcrumbs[1]).toMatchObject({ message: "added sku-42 to cart", data: { sku: "sku-42", qty: 2 } });
    expect(occ.contexts.runtime).toEqual({ name: "node", version: "v20.20.2" });
    expect(occ.sdk).toEqual({ name: "sentry.javascript.node", version: "11.12.0" });
    expect(occ.serverName).toBe("web-1");
    const crashing = occ.exceptions[0].frames.at(-1)!;
    expect(crashing).toMatchObject({
      filename: "/opt/sdkapp/node/generate.mjs",
      function: "chargeCard",
      module: "generate",
      lineno: 40,
      colno: 28,
      inApp: true,
      contextLine: "  return cart.payment.card.token.toUpperCase();",
    });
    expect(crashing.preContext).toHaveLength(5);
    expect(occ.exceptions[0].mechanism).toMatchObject({ type: "generic", handled: true, synthetic: false });
  });

  it("keeps the chained exception order and mechanism links", async () => {
    const capture = loadCaptures("node").find((c) => c.file === "013-chained-event.json")!;
    const [occ] = (await replayThroughPipeline(capture)).payload.occurrences;
    expect(occ.exceptions.map((e) => [e.type, e.mechanism?.type, e.mechanism?.exceptionId, e.mechanism?.parentId])).toEqual([
      ["Error", "chained", 1, 0],
      ["CheckoutError", "generic", 0, null],
    ]);
  });

  it("reads python store events: ISO timestamps, breadcrumb values, frame vars (scrubbed)", async () => {
    const occ = normalizeSentryEvent(await storeEvent("001-handled-store.json"), { receivedAt: RECEIVED_AT });
    expect(occ.timestamp.toISOString()).toBe("2026-11-21T14:19:58.745Z");
    expect(occ.breadcrumbs).toHaveLength(3);
    expect(occ.breadcrumbs[0].timestamp).toBe("2026-11-21T14:19:58.745Z");
    expect(occ.exceptions[0].frames[1]).toMatchObject({
      filename: "generate.py",
      absPath: "/opt/sdkapp/python/generate.py",
      function: "charge_card",
      module: "__main__",
    });
    expect(occ.exceptions[0].frames[1].vars).toEqual({ cart: { payment: {} } });
    expect(occ.modules?.["sentry-sdk"]).toBe("1.9.10");
    expect(occ.extra).toEqual({ "sys.argv": ["generate.py", "handled"] });
  });

  it("reads the WSGI request and filters credentials", async () => {
    const event = await storeEvent("012-wsgi-store.json");
    expect(normalizeSentryEvent(event).request).toEqual({
      url: "http://127.0.0.1/api/cart/77",
      method: "GET",
      query: "verbose=1",
      headers: { "User-Agent": "fixture-client/1.0", Host: "127.0.0.1" },
      clientIp: null,
      env: { SERVER_NAME: "127.0.0.1", SERVER_PORT: "80" },
    });
    const request = event.request as Record<string, unknown>;
    const withSecrets = {
      ...event,
      request: {
        ...request,
        headers: [
          ["Authorization", "Bearer s3cr3t"],
          ["Cookie", "session=abc"],
          ["Set-Cookie", "a=b"],
          ["X-Api-Key", "k"],
          ["X-Sentry-Auth", "Sentry sentry_key=x"],
          ["Accept", "*/*"],
        ],
        env: { REMOTE_ADDR: "203.0.113.9" },
        cookies: { session: "abc" },
      },
    };
    const occ = normalizeSentryEvent(withSecrets);
    expect(occ.request?.headers).toEqual({
      Authorization: "[Filtered]",
      Cookie: "[Filtered]",
      "Set-Cookie": "[Filtered]",
      "X-Api-Key": "[Filtered]",
      "X-Sentry-Auth": "[Filtered]",
      Accept: "*/*",
    });
    expect(occ.request?.clientIp).toBe("203.0.113.9");
    expect(JSON.stringify(occ)).not.toMatch(/s3cr3t|session=abc/);
  });

  it("prefers the user's ip for the request, and fills {{auto}} from the connection", async () => {
    const event = await storeEvent("012-wsgi-store.json");
    const occ = normalizeSentryEvent({ ...event, user: { id: 7, ip_address: "{{auto}}" } }, { connectionIp: "198.51.100.4" });
    expect(occ.user).toEqual({ id: "7", email: null, username: null, ip: "198.51.100.4" });
    expect(occ.request?.clientIp).toBe("198.51.100.4");
  });

  it("trims over-long strings instead of rejecting them", async () => {
    const event = await storeEvent("002-grouping-store.json");
    const huge = "x".repeat(100_000);
    const values = (event.exception as { values: Record<string, unknown>[] }).values;
    const occ = normalizeSentryEvent(
      { ...event, message: huge, exception: { values: [{ ...values[0], value: huge }] }, tags: { big: huge } },
      { limits: { maxStringLength: 8192 } },
    );
    expect(occ.message).toHaveLength(8192);
    expect(occ.message!.endsWith("…")).toBe(true);
    expect(occ.exceptions[0].value).toHaveLength(8192);
    expect(occ.tags.big).toHaveLength(200);
  });
});

describe("normalizeSentryEvent field rules", () => {
  const base = { event_id: "9ec79c33ec9942ab8353589fcb2e04dc" };

  it("formats logentry templates and keeps the template", () => {
    const occ = normalizeSentryEvent({ ...base, logentry: { message: "Order %s not found for %(user)s", params: { user: "ada" } } });
    expect(occ.message).toBe("Order %s not found for ada");
    const positional = normalizeSentryEvent({ ...base, logentry: { message: "Order %s of %d", params: ["1234", 5] } });
    expect(positional).toMatchObject({ message: "Order 1234 of 5", logentryTemplate: "Order %s of %d" });
    const formatted = normalizeSentryEvent({ ...base, logentry: { message: "Order %s", formatted: "Order 7", params: ["7"] } });
    expect(formatted).toMatchObject({ message: "Order 7", logentryTemplate: "Order %s" });
    expect(normalizeSentryEvent({ ...base, message: { message: "old %s", params: ["style"] } }).message).toBe("old style");
  });

  it("maps levels, defaulting to error", () => {
    const level = (value: unknown) => normalizeSentryEvent({ ...base, level: value }).level;
    expect([level("fatal"), level("WARNING"), level("warn"), level("critical"), level("info"), level("debug")]).toEqual([
      "fatal",
      "warning",
      "warning",
      "fatal",
      "info",
      "debug",
    ]);
    expect([level(undefined), level("bogus"), level(3)]).toEqual(["error", "error", "error"]);
  });

  it("reads a level named after an Object.prototype member as an unknown level", () => {
    const level = (value: unknown) => normalizeSentryEvent({ ...base, level: value }).level;
    expect([level("constructor"), level("__proto__"), level("toString")]).toEqual(["error", "error", "error"]);
  });

  it("keeps no environment as none (counted in the PRODUCTION bucket) and keeps the original string", () => {
    expect(normalizeSentryEvent(base).environment).toBeNull();
    expect(normalizeSentryEvent({ ...base, environment: "  " }).environment).toBeNull();
    expect(toEnvironmentBucket(normalizeSentryEvent(base).environment)).toBe("PRODUCTION");
    expect(normalizeSentryEvent({ ...base, environment: "Preprod-EU" }).environment).toBe("Preprod-EU");
  });

  it("reads timestamps as float seconds or ISO strings, clamping the future", () => {
    const at = (timestamp: unknown) => normalizeSentryEvent({ ...base, timestamp }, { receivedAt: RECEIVED_AT }).timestamp.toISOString();
    expect(at(1795270787.752)).toBe("2026-11-21T14:19:47.752Z");
    expect(at("2026-11-21T14:20:06.055734Z")).toBe("2026-11-21T14:20:06.055Z");
    expect(at("1795270787.5")).toBe("2026-11-21T14:19:47.500Z");
    expect(at(undefined)).toBe(RECEIVED_AT.toISOString());
    expect(at("yesterday")).toBe(RECEIVED_AT.toISOString());
    expect(at(RECEIVED_AT.getTime() / 1000 + 3600)).toBe(RECEIVED_AT.toISOString());
  });

  // Battery: out-of-range values that are valid JSON. Year 0 and BC dates are valid JSON and valid
  // JavaScript dates, but PostgreSQL's timestamptz refuses them (the batch statement would fail).
  it("replaces timestamps older than 30 days (unset clocks, year 0, BC) by the receive time", () => {
    const at = (timestamp: unknown) => normalizeSentryEvent({ ...base, timestamp }, { receivedAt: RECEIVED_AT }).timestamp.toISOString();
    expect(at("0000-06-01T00:00:00Z")).toBe(RECEIVED_AT.toISOString());
    expect(at(-62_230_000_000)).toBe(RECEIVED_AT.toISOString());
    expect(at(-8.64e12)).toBe(RECEIVED_AT.toISOString());
    expect(at(0)).toBe(RECEIVED_AT.toISOString());
    expect(at("1999-12-31T23:59:59.999Z")).toBe(RECEIVED_AT.toISOString());
    expect(at("2000-01-01T00:00:00Z")).toBe(RECEIVED_AT.toISOString());
    expect(at("2026-10-22T15:00:01Z")).toBe("2026-10-22T15:00:01.000Z");
    expect(at("2026-10-22T14:59:59Z")).toBe(RECEIVED_AT.toISOString());
  });

  it("reads tags given as pairs and drops non-scalar values", () => {
    const occ = normalizeSentryEvent({ ...base, tags: [["a", "1"], ["b", 2], ["c", true], ["d", { x: 1 }], ["__proto__", "p"], "junk"] });
    expect(occ.tags).toEqual({ a: "1", b: "2", c: "true", ["__proto__"]: "p" });
    expect(Object.getPrototypeOf(occ.tags)).toBe(Object.prototype);
  });

  it("derives handled from all mechanisms", () => {
    const handled = (...flags: (boolean | undefined)[]) =>
      normalizeSentryEvent({ ...base, exception: { values: flags.map((h) => ({ type: "E", mechanism: h === undefined ? null : { type: "x", handled: h } })) } })
        .handled;
    expect(handled(true, false)).toBe(false);
    expect(handled(true, true)).toBe(true);
    expect(handled(undefined)).toBe(null);
  });

  it("accepts a bare exception list and breadcrumbs as a plain array", () => {
    const occ = normalizeSentryEvent({ ...base, exception: [{ type: "E", value: "v" }], breadcrumbs: [{ message: "m" }] });
    expect(occ.exceptions).toHaveLength(1);
    expect(occ.breadcrumbs[0].message).toBe("m");
  });

  it("falls back to the envelope event_id, then to a fresh one", () => {
    expect(normalizeSentryEvent({}, { fallbackEventId: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" }).eventId).toBe("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    expect(normalizeSentryEvent({}).eventId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("rejects non-objects and bad event ids", () => {
    expect(errorCode(() => normalizeSentryEvent([1]))).toBe("malformed");
    expect(errorCode(() => normalizeSentryEvent(null))).toBe("malformed");
    expect(errorCode(() => normalizeSentryEvent({ event_id: "../../x" }))).toBe("invalid_event_id");
  });

  it("caps breadcrumbs to the newest ones", () => {
    const crumbs = Array.from({ length: 150 }, (_, i) => ({ message: `c${i}` }));
    const occ = normalizeSentryEvent({ ...base, breadcrumbs: { values: crumbs } });
    expect(occ.breadcrumbs).toHaveLength(100);
    expect(occ.breadcrumbs.at(-1)?.message).toBe("c149");
  });
});

describe("toEnvironmentBucket", () => {
  it.each([
    ["production", "PRODUCTION"],
    ["prod", "PRODUCTION"],
    ["Live", "PRODUCTION"],
    ["staging", "STAGING"],
    ["stage", "STAGING"],
    ["preprod", "STAGING"],
    ["QA", "STAGING"],
    ["test", "STAGING"],
    ["dev", "DEVELOPMENT"],
    ["development", "DEVELOPMENT"],
    ["local", "DEVELOPMENT"],
    ["feature-x", "DEVELOPMENT"],
  ])("%s → %s", (env, bucket) => {
    expect(toEnvironmentBucket(env)).toBe(bucket);
  });
});
