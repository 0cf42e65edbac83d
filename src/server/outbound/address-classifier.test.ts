import { describe, expect, it } from "vitest";
import { classifyAddress, embeddedIPv4 } from "./address-classifier";
import { parseOutboundAllow } from "./outbound-allow";

// Pure classification: nothing here resolves a name or opens a socket.
const forbidden = (address: string) => classifyAddress(address).forbidden;
/** The host a URL really names, as the outbound client sees it (WHATWG parsing). */
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, "");

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "link-local"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["0.0.0.0", "this network"],
    ["255.255.255.255", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "unique local (private)"],
    ["fd12:3456::1", "unique local (private)"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["ff02::1", "multicast"],
  ])("%s is %s", (address, reason) => {
    expect(forbidden(address)).toBe(reason);
  });

  it.each(["::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:169.254.169.254", "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::1", "::127.0.0.1"])(
    "the IPv4 inside %s is classified",
    (address) => {
      expect(embeddedIPv4(address)).not.toBeNull();
      expect(forbidden(address)).toMatch(/inside IPv6/);
    },
  );

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("%s is public", (address) => {
    expect(forbidden(address)).toBeNull();
  });

  it("a name is not an address", () => {
    expect(forbidden("localhost")).toBe("not an IP address");
  });

  it.each([
    ["http://2130706433:8080/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://017700000001/", "127.0.0.1"],
    ["http://0xa9fea9fe/", "169.254.169.254"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["http://[0:0:0:0:0:0:0:1]/", "::1"],
  ])("the spelling %s names %s, which is forbidden", (url, host) => {
    expect(hostOf(url)).toBe(host);
    expect(forbidden(hostOf(url))).not.toBeNull();
  });
});

describe("parseOutboundAllow", () => {
  it("allows host:port entries and CIDR ranges, nothing else", () => {
    const allow = parseOutboundAllow(" hooks.internal:8443, 127.0.0.1:9000 ,10.1.2.0/24,[::1]:7000, fd00::/8");
    expect(allow.allowsTarget("hooks.internal", 8443)).toBe(true);
    expect(allow.allowsTarget("HOOKS.internal", 8443)).toBe(true);
    expect(allow.allowsTarget("hooks.internal", 8444)).toBe(false);
    expect(allow.allowsTarget("127.0.0.1", 9000)).toBe(true);
    expect(allow.allowsTarget("127.0.0.1", 9001)).toBe(false);
    expect(allow.allowsTarget("::1", 7000)).toBe(true);
    expect(allow.allowsAddress("10.1.2.200")).toBe(true);
    expect(allow.allowsAddress("10.1.3.1")).toBe(false);
    expect(allow.allowsAddress("fd00::5")).toBe(true);
    expect(allow.allowsAddress("127.0.0.1")).toBe(false);
  });

  it("an empty value allows nothing", () => {
    const allow = parseOutboundAllow(undefined);
    expect(allow.allowsTarget("127.0.0.1", 80)).toBe(false);
    expect(allow.allowsAddress("127.0.0.1")).toBe(false);
  });

  it.each(["nonsense", "10.0.0.0/33", "host:99999", "::1/129"])("refuses the entry %s", (entry) => {
    expect(() => parseOutboundAllow(entry)).toThrow(/OUTBOUND_ALLOW/);
  });
});
