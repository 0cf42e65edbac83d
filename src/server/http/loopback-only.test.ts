import { describe, expect, it } from "vitest";
import { isFromThisMachine, isLoopbackAddress } from "./loopback-only";

/** A request as the outbox guard sees it: the TCP peer and the headers (no network needed). */
const request = (remoteAddress: string | undefined, forwardedFor?: string) =>
  ({ socket: { remoteAddress }, headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor } }) as never;

describe("loopback-only guard (the /dev/outbox rule)", () => {
  it("knows loopback addresses in every form a socket reports", () => {
    for (const address of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"]) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ["10.0.0.1", "192.168.1.2", "203.0.113.7", "::ffff:10.0.0.1", "fe80::1", "::", "1127.0.0.1", "", undefined, null]) {
      expect(isLoopbackAddress(address), String(address)).toBe(false);
    }
  });

  it("refuses a peer off this machine whatever X-Forwarded-For claims", () => {
    for (const hops of [0, 1, 2]) {
      expect(isFromThisMachine(request("192.0.2.10", "127.0.0.1"), hops)).toBe(false);
      expect(isFromThisMachine(request("::ffff:198.51.100.4", "::1"), hops)).toBe(false);
      expect(isFromThisMachine(request(undefined), hops)).toBe(false);
    }
  });

  it("without TRUST_PROXY, believes the loopback peer only", () => {
    expect(isFromThisMachine(request("127.0.0.1", "203.0.113.7"), 0)).toBe(true);
    expect(isFromThisMachine(request("::1"), 0)).toBe(true);
  });

  it("with TRUST_PROXY, also requires the forwarded client to be loopback", () => {
    expect(isFromThisMachine(request("127.0.0.1", "203.0.113.7"), 1)).toBe(false);
    expect(isFromThisMachine(request("127.0.0.1", "127.0.0.1, 203.0.113.7"), 1)).toBe(false);
    expect(isFromThisMachine(request("127.0.0.1", "127.0.0.1"), 1)).toBe(true);
    expect(isFromThisMachine(request("127.0.0.1"), 1)).toBe(true);
  });
});
