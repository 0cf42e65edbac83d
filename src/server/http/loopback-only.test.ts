import { describe, expect, it } from "vitest";
import { isLoopbackAddress, requestSource } from "./loopback-only";

/** A request as the outbox guard sees it: the TCP peer and the headers (no network needed). */
const request = (remoteAddress: string | undefined, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as never;
const xff = (value: string) => ({ "x-forwarded-for": value });

describe("loopback-only guard (the /dev/outbox rule)", () => {
  it("knows loopback addresses in every form a socket reports", () => {
    for (const address of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"]) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ["10.0.0.1", "192.168.1.2", "203.0.113.7", "::ffff:10.0.0.1", "fe80::1", "::", "1127.0.0.1", "", undefined, null]) {
      expect(isLoopbackAddress(address), String(address)).toBe(false);
    }
  });

  it("refuses a peer off this machine whatever the headers claim", () => {
    for (const hops of [0, 1, 2]) {
      expect(requestSource(request("192.0.2.10", xff("127.0.0.1")), hops)).toBe("elsewhere");
      expect(requestSource(request("::ffff:198.51.100.4", { "x-real-ip": "::1" }), hops)).toBe("elsewhere");
      expect(requestSource(request(undefined), hops)).toBe("elsewhere");
    }
  });

  describe("without TRUST_PROXY", () => {
    it("serves the loopback peer that came straight, without forwarding headers", () => {
      expect(requestSource(request("127.0.0.1"), 0)).toBe("this machine");
      expect(requestSource(request("::1", { host: "localhost:3000", "user-agent": "x" }), 0)).toBe("this machine");
    });

    // A same-host proxy makes every peer loopback: any sign of it means the client may be anyone.
    it.each([
      ["x-forwarded-for", "203.0.113.7"],
      ["x-forwarded-for", "127.0.0.1"],
      ["forwarded", "for=203.0.113.7"],
      ["forwarded", "for=127.0.0.1"],
      ["x-real-ip", "203.0.113.7"],
      ["x-real-ip", "127.0.0.1"],
      ["x-forwarded-host", "faultline.example"],
      ["x-forwarded-proto", "https"],
      ["via", "1.1 proxy"],
      ["cf-connecting-ip", "203.0.113.7"],
      ["true-client-ip", "203.0.113.7"],
    ])("refuses a loopback peer carrying %s: %s", (name, value) => {
      expect(requestSource(request("127.0.0.1", { [name]: value }), 0)).toBe("forwarded");
    });
  });

  describe("with TRUST_PROXY", () => {
    it.each([
      [{}, "this machine"],
      [xff("127.0.0.1"), "this machine"],
      [xff("203.0.113.7"), "elsewhere"],
      [xff("127.0.0.1, 203.0.113.7"), "elsewhere"],
      [{ forwarded: "for=203.0.113.7" }, "elsewhere"],
      [{ forwarded: 'for="[2001:db8::17]:4711"' }, "elsewhere"],
      [{ forwarded: "for=unknown" }, "elsewhere"],
      [{ forwarded: 'for="[::1]:4711";proto=http' }, "this machine"],
      [{ forwarded: "for=127.0.0.1:5000, for=127.0.0.1" }, "this machine"],
      [{ "x-real-ip": "203.0.113.7" }, "elsewhere"],
      [{ "x-real-ip": "127.0.0.1" }, "this machine"],
      [{ ...xff("127.0.0.1"), "x-real-ip": "203.0.113.7" }, "elsewhere"],
      [{ ...xff("127.0.0.1"), forwarded: "for=198.51.100.4" }, "elsewhere"],
      [{ ...xff("127.0.0.1"), "x-forwarded-host": "faultline.example", via: "1.1 nginx" }, "this machine"],
    ])("a loopback peer with %o is from %s", (headers, source) => {
      expect(requestSource(request("127.0.0.1", headers as Record<string, string>), 1)).toBe(source);
    });
  });
});
