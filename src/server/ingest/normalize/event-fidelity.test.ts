import { afterEach, describe, expect, it } from "vitest";
import { issueCulprit, issueLocation, issueTitle } from "../../grouping/issue-title";
import { formatLogentry } from "./event-message";
import { normalizeSentryEvent } from "./event.normalizer";

const RECEIVED_AT = new Date("2026-11-21T15:00:00Z");
const base = { event_id: "a".repeat(32) };
const normalize = (event: Record<string, unknown>, options: Parameters<typeof normalizeSentryEvent>[1] = {}) =>
  normalizeSentryEvent({ ...base, ...event }, { receivedAt: RECEIVED_AT, ...options });

describe("timestamps (Relay's rules)", () => {
  const originalTz = process.env.TZ;
  afterEach(() => {
    process.env.TZ = originalTz;
  });

  it("reads a timestamp without an offset as UTC, whatever the server's zone, for events and breadcrumbs", () => {
    process.env.TZ = "America/New_York";
    expect(new Date(2026, 10, 21, 12).getTimezoneOffset()).toBe(300); // the zone really is in effect
    const occ = normalize({ timestamp: "2026-11-21T14:00:00", breadcrumbs: [{ timestamp: "2026-11-21 13:59:58.5", message: "m" }] });
    expect(occ.timestamp.toISOString()).toBe("2026-11-21T14:00:00.000Z");
    expect(occ.breadcrumbs[0].timestamp).toBe("2026-11-21T13:59:58.500Z");
  });

  it("stores an event older than 30 days or over a minute ahead at the receive time, keeping the SDK's time", () => {
    const old = normalize({ timestamp: "2018-03-01T10:00:00Z" });
    expect(old.timestamp).toEqual(RECEIVED_AT);
    expect(old.originalTimestamp).toBe("2018-03-01T10:00:00.000Z");
    expect(old.timestampAdjustment).toBe("past_timestamp");
    const ahead = normalize({ timestamp: RECEIVED_AT.getTime() / 1000 + 120 });
    expect(ahead.timestamp).toEqual(RECEIVED_AT);
    expect(ahead.timestampAdjustment).toBe("future_timestamp");
    const fine = normalize({ timestamp: RECEIVED_AT.getTime() / 1000 - 3600 });
    expect(fine.originalTimestamp).toBeUndefined();
  });

  it("corrects clock drift with the envelope's sent_at beyond 55 minutes, not below", () => {
    // The device's clock is 2 h behind: it stamped the event 10 s before it sent it.
    const drifted = normalize({ timestamp: "2026-11-21T12:59:50Z" }, { sentAt: "2026-11-21T13:00:00Z" });
    expect(drifted.timestamp.toISOString()).toBe("2026-11-21T14:59:50.000Z");
    expect(drifted.originalTimestamp).toBe("2026-11-21T12:59:50.000Z");
    expect(drifted.timestampAdjustment).toBe("clock_drift");
    const slowNetwork = normalize({ timestamp: "2026-11-21T14:10:00Z" }, { sentAt: "2026-11-21T14:10:01Z" });
    expect(slowNetwork.timestamp.toISOString()).toBe("2026-11-21T14:10:00.000Z");
  });
});

describe("log messages", () => {
  it("substitutes {name}, {0} and {} params, keeps {{ }} literal and a plain string as is", () => {
    expect(formatLogentry("User {user} paid {amount}", { user: "ada", amount: 12 })).toBe("User ada paid 12");
    expect(formatLogentry("{0} of {1} ({0})", ["3", "4"])).toBe("3 of 4 (3)");
    expect(formatLogentry("{} then {}", ["a", "b"])).toBe("a then b");
    expect(formatLogentry("Order {OrderId} by {@User}", [42, { id: 1 }])).toBe('Order 42 by {"id":1}');
    expect(formatLogentry("{{literal}} {missing}", {})).toBe("{literal} {missing}");
    expect(formatLogentry("%s and {0}", ["x"])).toBe("x and {0}");
    const occ = normalize({ logentry: { message: "Cart {cart_id} is empty", params: { cart_id: 77 } } });
    expect(occ.message).toBe("Cart 77 is empty");
    expect(occ.logentryTemplate).toBe("Cart {cart_id} is empty");
    expect(normalize({ message: "plain text" }).message).toBe("plain text");
  });
});

describe("titles and culprits (Sentry's rules)", () => {
  const frame = (fn: string, extra: Record<string, unknown> = {}) => ({ function: fn, filename: "app.py", module: "shop.cart", in_app: true, ...extra });

  it("titles an exception with neither type nor value 'Error' and cuts values at 100 characters", () => {
    expect(issueTitle(normalize({ exception: { values: [{ stacktrace: { frames: [frame("f")] } }] } }))).toBe("Error");
    const long = "x".repeat(150);
    const title = issueTitle(normalize({ exception: { values: [{ type: "ValueError", value: long }] } }));
    expect(title).toBe(`ValueError: ${"x".repeat(97)}...`);
    expect(normalize({ exception: { values: [{ type: "ValueError", value: long }] } }).exceptions[0].value).toBe(long);
    expect(issueTitle(normalize({}))).toBe("<unlabeled event>");
  });

  it("titles a synthetic exception by its crashing function (in-app first)", () => {
    const occ = normalize({
      platform: "native",
      exception: {
        values: [
          {
            type: "SIGSEGV",
            value: "Segfault",
            mechanism: { type: "signalhandler", synthetic: true, handled: false },
            stacktrace: { frames: [frame("main"), frame("crash_here"), { function: "memcpy", package: "/lib/libc.so.6", in_app: false }] },
          },
        ],
      },
    });
    expect(issueTitle(occ)).toBe("crash_here");
    expect(issueLocation(occ)).toBe("crash_here");
  });

  it("puts the SDK's culprit first, then the transaction, then the crashing frame", () => {
    const exception = { values: [{ type: "KeyError", value: "'id'", stacktrace: { frames: [frame("load")] } }] };
    expect(issueCulprit(normalize({ platform: "python", exception, culprit: "sdk culprit", transaction: "/cart" }))).toBe("sdk culprit");
    expect(issueCulprit(normalize({ platform: "python", exception, transaction: "/cart" }))).toBe("/cart");
    expect(issueCulprit(normalize({ platform: "python", exception }))).toBe("shop.cart in load");
    expect(issueLocation(normalize({ platform: "python", exception, transaction: "/cart" }))).toBe("shop.cart in load");
    const js = { values: [{ type: "TypeError", value: "x", stacktrace: { frames: [{ function: "pay", filename: "/app/pay.js", in_app: true }] } }] };
    expect(issueCulprit(normalize({ platform: "node", exception: js }))).toBe("pay (/app/pay.js)");
  });

  it("reads an address-only native frame as `0x… in lib`", () => {
    const occ = normalize({
      platform: "native",
      exception: {
        values: [{ type: "EXC_BAD_ACCESS", value: "crash", stacktrace: { frames: [{ instruction_addr: "0x1000a1b2c", package: "/usr/lib/libfoo.so" }] } }],
      },
    });
    expect(issueLocation(occ)).toBe("0x1000a1b2c in libfoo.so");
  });

  it("titles an exception group by its first leaf exception", () => {
    const occ = normalize({
      exception: {
        values: [
          { type: "ExceptionGroup", value: "2 errors", mechanism: { type: "chained", is_exception_group: true, exception_id: 0 } },
          { type: "ValueError", value: "bad", mechanism: { type: "chained", exception_id: 1, parent_id: 0 } },
          { type: "TypeError", value: "worse", mechanism: { type: "chained", exception_id: 2, parent_id: 0 } },
        ],
      },
    });
    expect(issueTitle(occ)).toBe("ValueError: bad");
    expect(occ.exceptions[0].mechanism).toMatchObject({ isExceptionGroup: true, exceptionId: 0 });
  });
});

describe("fields kept whole", () => {
  it("moves an event-level stacktrace onto the one exception without a stack (sentry-elixir)", () => {
    const frames = Array.from({ length: 13 }, (_, i) => ({
      function: `f${i}`,
      module: "MyApp.Worker",
      filename: "lib/worker.ex",
      lineno: i + 1,
      in_app: true,
    }));
    const occ = normalize({ platform: "elixir", exception: [{ type: "RuntimeError", value: "boom", module: "" }], stacktrace: { frames } });
    expect(occ.exceptions[0].frames).toHaveLength(13);
    expect(occ.stacktrace).toEqual([]);
  });

  it("keeps native frame fields, debug images, threads, modules and dist", () => {
    const nativeFrame = {
      instruction_addr: "0x7f0012",
      symbol_addr: "0x7f0000",
      image_addr: "0x7e0000",
      package: "/usr/lib/libfoo.so",
      raw_function: "_Z3foov",
      symbol: "_Z3foov",
      function: "foo()",
      platform: "native",
      trust: "cfi",
    };
    const occ = normalize({
      platform: "native",
      dist: "42",
      modules: { serde: "1.0.1", bad: { x: 1 } },
      debug_meta: { images: [{ type: "elf", code_file: "/usr/lib/libfoo.so", image_addr: "0x7e0000", image_size: 4096, debug_id: "abc-1" }] },
      threads: {
        values: [
          { id: 1, name: "main", crashed: true, stacktrace: { frames: [nativeFrame] } },
          { id: 2, name: "io", stacktrace: { frames: [nativeFrame] } },
        ],
      },
    });
    expect(occ.stacktrace[0]).toMatchObject({
      instructionAddr: "0x7f0012",
      symbolAddr: "0x7f0000",
      imageAddr: "0x7e0000",
      package: "/usr/lib/libfoo.so",
      rawFunction: "_Z3foov",
      symbol: "_Z3foov",
      platform: "native",
      trust: "cfi",
    });
    expect(occ.debugImages).toEqual([
      { type: "elf", name: "/usr/lib/libfoo.so", address: "0x7e0000", size: 4096, debugId: "abc-1", codeId: null, debugFile: null, arch: null },
    ]);
    expect(occ.threads?.map((t) => [t.id, t.name, t.crashed, t.frames.length])).toEqual([
      ["1", "main", true, 1],
      ["2", "io", false, 0],
    ]);
    expect(occ.modules).toEqual({ serde: "1.0.1" });
    expect(occ.dist).toBe("42");
  });

  it("keeps frame vars trimmed, with sensitive names filtered", () => {
    const occ = normalize({
      exception: {
        values: [
          {
            type: "E",
            stacktrace: { frames: [{ function: "f", vars: { user_id: 7, password: "hunter2", nested: { api_key: "k", note: "y".repeat(400) } } }] },
          },
        ],
      },
    });
    const vars = occ.exceptions[0].frames[0].vars!;
    expect(vars).toMatchObject({ user_id: 7, password: "[Filtered]", nested: { api_key: "[Filtered]" } });
    expect((vars.nested as { note: string }).note).toHaveLength(256);
    expect(JSON.stringify(occ)).not.toContain("hunter2");
  });

  it("keeps request cookies (names only), data and env scrubbed, empty header values, user name/geo/data", () => {
    const occ = normalize({
      request: {
        url: "https://shop.test/pay",
        headers: { "X-Empty": "", Accept: "*/*" },
        cookies: "sessionid=abc; theme=dark",
        data: { card_number: "4111", amount: 3 },
        env: { REMOTE_ADDR: "not-an-ip", SERVER_NAME: "web-1" },
      },
      user: { id: "1", name: "Ada", geo: { city: "Vienna", country_code: "AT" }, data: { plan: "pro", token: "t" }, ip_address: "bogus" },
      mechanism: undefined,
    });
    expect(occ.request).toMatchObject({
      headers: { "X-Empty": "", Accept: "*/*" },
      cookies: { sessionid: "[Filtered]", theme: "[Filtered]" },
      data: { card_number: "[Filtered]", amount: 3 },
      env: { REMOTE_ADDR: "not-an-ip", SERVER_NAME: "web-1" },
      clientIp: null,
    });
    expect(occ.user).toMatchObject({ id: "1", name: "Ada", ip: null, geo: { city: "Vienna" }, data: { plan: "pro", token: "[Filtered]" } });
    expect(JSON.stringify(occ)).not.toContain("abc");
  });

  it("drops a user ip_address that is not an IP, accepts IPv4 and IPv6", () => {
    expect(normalize({ user: { ip_address: "51d22b77-f663-4dbe-8103-8b749d1d9a48" } }).user).toBeNull();
    expect(normalize({ user: { ip_address: "2001:db8::1" } }).user?.ip).toBe("2001:db8::1");
    expect(normalize({ user: { ip_address: "203.0.113.9" } }).request).toBeNull();
  });

  it("sanitises an unknown platform to other and keeps mechanism description and help link", () => {
    expect(normalize({ platform: "38decc78-2711" }).platform).toBe("other");
    expect(normalize({ platform: "cocoa" }).platform).toBe("cocoa");
    const occ = normalize({ exception: { values: [{ type: "E", mechanism: { type: "m", description: "why", help_link: "https://docs.test/e" } }] } });
    expect(occ.exceptions[0].mechanism).toMatchObject({ description: "why", helpLink: "https://docs.test/e", isExceptionGroup: false });
  });
});
