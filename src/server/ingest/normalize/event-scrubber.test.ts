import { describe, expect, it } from "vitest";
import type { ScrubRule } from "../../../shared/data-settings.inputs";
import { scrubOccurrence } from "./event-scrubber";
import { normalizeSentryEvent } from "./event.normalizer";
import { DEFAULT_SCRUB_SETTINGS, type ScrubSettings } from "./scrub-settings";
import { FILTERED } from "./sensitive-data";
import { luhnValid } from "./value-rules";

const HASH_KEY = "ab".repeat(32);
const VISA = "4111 1111 1111 1111";
const settings = (over: Partial<ScrubSettings> = {}): ScrubSettings => ({ ...DEFAULT_SCRUB_SETTINGS, hashKey: HASH_KEY, ...over });
const rule = (type: ScrubRule["type"], method: ScrubRule["method"], extra: { pattern?: string; replacement?: string } = {}): ScrubRule => ({
  type,
  method,
  ...extra,
});

function scrubbed(event: Record<string, unknown>, over: Partial<ScrubSettings> = {}) {
  const occurrence = normalizeSentryEvent({ event_id: "a".repeat(32), ...event }, { connectionIp: "198.51.100.23" });
  const count = scrubOccurrence(occurrence, settings(over));
  return { occurrence, count };
}

describe("Luhn", () => {
  it.each(["4111111111111111", "5500005555555559", "378282246310005", "6011111111111117"])("accepts the test card %s", (card) => {
    expect(luhnValid(card)).toBe(true);
  });
  it.each(["4111111111111112", "1234567812345678", "0000000000000001"])("refuses %s", (digits) => {
    expect(luhnValid(digits)).toBe(false);
  });
});

describe("default scrubbing", () => {
  it("filters Luhn-valid card numbers in any text, spaced or dashed, and leaves other digit runs", () => {
    const { occurrence, count } = scrubbed({
      message: `charge ${VISA} failed; order 1234567812345678`,
      extra: { note: "card 5500-0055-5555-5559" },
      breadcrumbs: [{ message: "paid with 4111111111111111" }],
    });
    expect(occurrence.message).toBe(`charge ${FILTERED} failed; order 1234567812345678`);
    expect(occurrence.extra.note).toBe(`card ${FILTERED}`);
    expect(occurrence.breadcrumbs[0].message).toBe(`paid with ${FILTERED}`);
    expect(count).toBe(3);
  });

  it("filters values under Sentry's sensitive key names in extra, contexts, tags, user data and nested bodies", () => {
    const { occurrence } = scrubbed({
      extra: { password: "hunter2", api_key: "k", nested: { deeper: { session_token: "s" } }, plain: "kept" },
      contexts: { db: { credentials: "c" } },
      tags: { auth_mode: "x", region: "eu" },
      user: { id: "1", data: { secret: "s" } },
    });
    expect(occurrence.extra).toEqual({ password: FILTERED, api_key: FILTERED, nested: { deeper: { session_token: FILTERED } }, plain: "kept" });
    expect(occurrence.contexts).toEqual({ db: { credentials: FILTERED } });
    expect(occurrence.tags).toEqual({ auth_mode: FILTERED, region: "eu" });
    expect(occurrence.user?.data).toEqual({ secret: FILTERED });
  });

  it("filters sensitive query parameters in the URL and the query string", () => {
    const { occurrence } = scrubbed({ request: { url: "https://shop.test/pay?token=abc&page=2#top", query_string: "api_key=k&q=shoes" } });
    expect(occurrence.request?.url).toBe("https://shop.test/pay?token=%5BFiltered%5D&page=2#top");
    expect(occurrence.request?.query).toBe("api_key=%5BFiltered%5D&q=shoes");
  });

  it("does nothing with scrubDefaults off", () => {
    const { occurrence, count } = scrubbed({ message: `card ${VISA}`, extra: { password: "hunter2" } }, { scrubDefaults: false });
    expect(occurrence.message).toBe(`card ${VISA}`);
    expect(occurrence.extra.password).toBe("hunter2");
    expect(count).toBe(0);
  });

  it("keeps safe fields whole, at any depth, whatever they hold", () => {
    const { occurrence } = scrubbed(
      { extra: { auth_mode: "oauth", password: "p", box: { Session_Id: `id ${VISA}` } } },
      { safeFields: ["auth_mode", "session_id"] },
    );
    expect(occurrence.extra).toEqual({ auth_mode: "oauth", password: FILTERED, box: { Session_Id: `id ${VISA}` } });
  });

  it("adds sensitive field names, matched case-insensitively inside keys", () => {
    const { occurrence } = scrubbed({ extra: { customerPhone: "+43 1 234", nested: { PHONE_NUMBER: "555" }, city: "Vienna" } }, { sensitiveFields: ["phone"] });
    expect(occurrence.extra).toEqual({ customerPhone: FILTERED, nested: { PHONE_NUMBER: FILTERED }, city: "Vienna" });
  });

  it("walks frame variables, exception values and breadcrumb data", () => {
    const { occurrence } = scrubbed({
      exception: {
        values: [{ type: "Error", value: `bad card ${VISA}`, stacktrace: { frames: [{ function: "pay", vars: { cardHolder: { note: VISA }, amount: 3 } }] } }],
      },
      breadcrumbs: [{ message: "m", data: { authorization: "Bearer x" } }],
    });
    expect(occurrence.exceptions[0].value).toBe(`bad card ${FILTERED}`);
    expect(occurrence.exceptions[0].frames[0].vars).toEqual({ cardHolder: { note: FILTERED }, amount: 3 });
    expect(occurrence.breadcrumbs[0].data).toEqual({ authorization: FILTERED });
  });

  it("keeps a `__proto__` key as data", () => {
    const { occurrence } = scrubbed({ extra: JSON.parse(`{"__proto__": {"password": "p"}}`) });
    expect(Object.getPrototypeOf(occurrence.extra)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(occurrence.extra, "__proto__")?.value).toEqual({ password: FILTERED });
  });
});

describe("value rules", () => {
  const text = "mail ada@example.com from 203.0.113.9 id 123e4567-e89b-12d3-a456-426614174000 iban DE89 3704 0044 0532 0130 00";

  it.each([
    ["email", "ada@example.com"],
    ["ip", "203.0.113.9"],
    ["uuid", "123e4567-e89b-12d3-a456-426614174000"],
    ["iban", "DE89 3704 0044 0532 0130 00"],
  ] as const)("%s with remove", (type, found) => {
    const { occurrence, count } = scrubbed({ message: text }, { rules: [rule(type, "remove")] });
    expect(occurrence.message).toBe(text.replace(found, FILTERED));
    expect(count).toBe(1);
  });

  it("mask keeps the length", () => {
    const { occurrence } = scrubbed({ message: "mail ada@example.com now" }, { rules: [rule("email", "mask")] });
    expect(occurrence.message).toBe(`mail ${"*".repeat("ada@example.com".length)} now`);
  });

  it("replace puts the replacement", () => {
    const { occurrence } = scrubbed({ message: "mail ada@example.com now" }, { rules: [rule("email", "replace", { replacement: "<email>" })] });
    expect(occurrence.message).toBe("mail <email> now");
  });

  it("hash is stable for a value and key, differs across values and organizations' keys", () => {
    const hashRule = [rule("pattern", "hash", { pattern: "cus_[A-Za-z0-9]+" })];
    const one = scrubbed({ message: "customer cus_Abc123" }, { rules: hashRule }).occurrence.message;
    const again = scrubbed({ message: "again cus_Abc123" }, { rules: hashRule }).occurrence.message;
    const other = scrubbed({ message: "customer cus_Xyz999" }, { rules: hashRule }).occurrence.message;
    const otherOrg = scrubbed({ message: "customer cus_Abc123" }, { rules: hashRule, hashKey: "cd".repeat(32) }).occurrence.message;
    const hash = one!.slice("customer ".length);
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(again).toBe(`again ${hash}`);
    expect(other).not.toBe(one);
    expect(otherOrg).not.toBe(one);
  });

  it("a password rule takes whole values under password-like keys with its method", () => {
    const { occurrence } = scrubbed({ extra: { db_passwd: "hunter2", user: "ada" } }, { scrubDefaults: false, rules: [rule("password", "mask")] });
    expect(occurrence.extra).toEqual({ db_passwd: "*******", user: "ada" });
  });

  it("a pattern that matches the empty string replaces nothing", () => {
    const { occurrence, count } = scrubbed({ message: "abc" }, { rules: [rule("pattern", "remove", { pattern: "x*" })] });
    expect(occurrence.message).toBe("abc");
    expect(count).toBe(0);
  });

  it("a catastrophic pattern is not run (it cannot compile for the linear engine) and ingest goes on", () => {
    const { occurrence } = scrubbed({ message: `${"a".repeat(40)}!` }, { rules: [rule("pattern", "remove", { pattern: "(a|a)*\\1b" })] });
    expect(occurrence.message).toBe(`${"a".repeat(40)}!`);
  });

  it("a nested-quantifier pattern runs in linear time on the linear engine", () => {
    // On the backtracking engine `(a+)+$` over 500 a's and a "!" would try 2^500 splits.
    const { occurrence } = scrubbed({ message: `${"a".repeat(500)}!` }, { rules: [rule("pattern", "remove", { pattern: "(a+)+$" })] });
    expect(occurrence.message).toBe(`${"a".repeat(500)}!`);
  });
});

describe("the pattern budget of one event", () => {
  it("filters whole the texts a costly pattern can no longer check, instead of storing them unchecked or scanning on", () => {
    const big = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`field${i}`, "word ".repeat(1600)]));
    const { occurrence } = scrubbed({ message: "first", extra: big }, { rules: [rule("pattern", "remove", { pattern: "(?:[a-z]+\\s?)+x" })] });
    const values = Object.values(occurrence.extra);
    expect(values.filter((value) => value === FILTERED).length).toBeGreaterThan(0);
    // The message came first and was checked within the budget.
    expect(occurrence.message).toBe("first");
  });

  it("leaves an ordinary event to a cheap pattern", () => {
    const extra = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`field${i}`, "order cus_A1 shipped ".repeat(50)]));
    const { occurrence } = scrubbed({ extra }, { rules: [rule("pattern", "replace", { pattern: "cus_[A-Za-z0-9]+", replacement: "<customer>" })] });
    for (const value of Object.values(occurrence.extra)) expect(value).toBe("order <customer> shipped ".repeat(50));
  });
});

describe("storeIpAddresses: false", () => {
  it("drops the user's IP ({{auto}} resolved), the request's client IP, IP headers, REMOTE_ADDR and IPs in texts", () => {
    const { occurrence } = scrubbed(
      {
        message: "from 203.0.113.9 and 2001:db8::1 at 12:30:45",
        user: { id: "u1", ip_address: "{{auto}}" },
        request: {
          url: "https://x.test/",
          headers: { "X-Forwarded-For": "203.0.113.10", "X-Real-IP": "203.0.113.11", Accept: "*/*" },
          env: { REMOTE_ADDR: "203.0.113.12", SERVER_NAME: "x" },
        },
        extra: { note: "peer 198.51.100.23" },
      },
      { storeIpAddresses: false },
    );
    const stored = JSON.stringify(occurrence);
    for (const ip of ["198.51.100.23", "203.0.113.9", "203.0.113.10", "203.0.113.11", "203.0.113.12", "2001:db8::1"]) expect(stored).not.toContain(ip);
    expect(occurrence.user?.ip).toBeNull();
    expect(occurrence.request?.clientIp).toBeNull();
    expect(occurrence.message).toBe(`from ${FILTERED} and ${FILTERED} at 12:30:45`);
    expect(occurrence.request?.headers.Accept).toBe("*/*");
  });

  it("keeps IPs by default", () => {
    const { occurrence } = scrubbed({ user: { id: "u1", ip_address: "{{auto}}" } });
    expect(occurrence.user?.ip).toBe("198.51.100.23");
  });
});
