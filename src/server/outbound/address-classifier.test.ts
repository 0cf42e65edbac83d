import { describe, expect, it } from "vitest";
import { classifyAddress, embeddedIPv4 } from "./address-classifier";
import { parseOutboundAllow } from "./outbound-allow";

// Pure classification: nothing here resolves a name or opens a socket.
const forbidden = (address: string) => classifyAddress(address).forbidden;
/** The host a URL really names, as the outbound client sees it (WHATWG parsing). */
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, "");

/**
 * Every range of the IANA IPv4 and IPv6 Special-Purpose Address Registries (and the IPv4-carrying
 * forms), by one address inside it and, where a neighbour is public, one just outside: the
 * expected reason, or null for public.
 */
const TABLE: [address: string, reason: string | null][] = [
  // IPv4
  ["0.0.0.0", "this network"],
  ["0.255.255.255", "this network"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["100.64.0.1", "carrier-grade NAT"],
  ["100.127.255.255", "carrier-grade NAT"],
  ["100.128.0.1", null],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["169.254.169.254", "link-local"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["172.32.0.1", null],
  ["192.0.0.1", "IETF protocol assignments"],
  ["192.0.0.8", "IETF protocol assignments"],
  ["192.0.0.9", "IETF protocol assignments"],
  ["192.0.0.10", "IETF protocol assignments"],
  ["192.0.0.170", "IETF protocol assignments"],
  ["192.0.0.171", "IETF protocol assignments"],
  ["192.0.2.10", "documentation"],
  ["192.31.196.1", "AS112 DNS"],
  ["192.52.193.1", "AMT relays"],
  ["192.88.99.1", "6to4 relay anycast"],
  ["192.168.1.1", "private"],
  ["192.169.0.1", null],
  ["192.175.48.1", "AS112 DNS"],
  ["198.18.0.1", "benchmarking"],
  ["198.19.255.255", "benchmarking"],
  ["198.20.0.1", null],
  ["198.51.100.7", "documentation"],
  ["203.0.113.7", "documentation"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.254", "reserved"],
  ["255.255.255.255", "limited broadcast"],
  ["8.8.8.8", null],
  ["1.1.1.1", null],
  // IPv6
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["64:ff9b:1::7f00:1", "local-use NAT64"],
  ["64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "local-use NAT64"],
  ["100::1", "discard"],
  ["100:0:0:1::1", "dummy prefix"],
  ["2001::1", "IETF protocol assignments"],
  ["2001:1::1", "IETF protocol assignments"],
  ["2001:2::1", "IETF protocol assignments"],
  ["2001:3::1", "IETF protocol assignments"],
  ["2001:4:112::1", "IETF protocol assignments"],
  ["2001:10::1", "IETF protocol assignments"],
  ["2001:20::1", "IETF protocol assignments"],
  ["2001:30::1", "IETF protocol assignments"],
  ["2001:1ff:ffff::1", "IETF protocol assignments"],
  ["2001:200::1", null],
  ["2001:db8::1", "documentation"],
  ["2620:4f:8000::1", "AS112 DNS"],
  ["2620:4f:8001::1", null],
  ["3fff::1", "documentation"],
  ["3fff:fff::1", "documentation"],
  ["5f00::1", "segment routing (SRv6)"],
  ["fc00::1", "unique local (private)"],
  ["fd12:3456::1", "unique local (private)"],
  ["fe80::1", "link-local"],
  ["fec0::1", "site-local"],
  ["ff02::1", "multicast"],
  ["4000::1", "reserved (not global unicast)"],
  ["1::1", "reserved (not global unicast)"],
  ["2606:4700:4700::1111", null],
  ["2a00:1450::1", null],
  // Teredo: refused whole, whatever it carries (here a public server and the client 127.0.0.1 inverted)
  ["2001:0:808:808::80ff:fffe", "IETF protocol assignments"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "IETF protocol assignments"],
  // Forms that carry an IPv4 address: judged by it
  ["::ffff:127.0.0.1", "loopback (IPv4 127.0.0.1 inside IPv6)"],
  ["::ffff:7f00:1", "loopback (IPv4 127.0.0.1 inside IPv6)"],
  ["::FFFF:7F00:1", "loopback (IPv4 127.0.0.1 inside IPv6)"],
  ["0:0:0:0:0:ffff:a9fe:a9fe", "link-local (IPv4 169.254.169.254 inside IPv6)"],
  ["::ffff:0:0", "this network (IPv4 0.0.0.0 inside IPv6)"],
  ["::ffff:8.8.8.8", null],
  ["::ffff:0:127.0.0.1", "loopback (IPv4 127.0.0.1 inside IPv6)"],
  ["::ffff:0:a00:1", "private (IPv4 10.0.0.1 inside IPv6)"],
  ["::ffff:0:808:808", null],
  ["::127.0.0.1", "loopback (IPv4 127.0.0.1 inside IPv6)"],
  ["::a9fe:a9fe", "link-local (IPv4 169.254.169.254 inside IPv6)"],
  ["::8.8.8.8", null],
  ["64:ff9b::7f00:1", "loopback (IPv4 127.0.0.1 inside IPv6)"],
  ["64:ff9b::192.168.0.1", "private (IPv4 192.168.0.1 inside IPv6)"],
  ["64:ff9b::808:808", null],
  ["2002:7f00:1::1", "loopback (IPv4 127.0.0.1 inside IPv6)"],
  ["2002:a9fe:a9fe::", "link-local (IPv4 169.254.169.254 inside IPv6)"],
  ["2002:808:808::1", null],
  // Spellings: brackets and zone ids are read; any other IPv4 spelling is no address at all
  ["[::1]", "loopback"],
  ["[fe80::1%25eth0]", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["::1%lo", "loopback"],
  ["[::ffff:127.0.0.1]", "loopback (IPv4 127.0.0.1 inside IPv6)"],
  ["[2606:4700:4700::1111]", null],
  ["0177.0.0.1", "not an IP address"],
  ["010.0.0.1", "not an IP address"],
  ["8.8.8.08", "not an IP address"],
  ["0x7f.0.0.1", "not an IP address"],
  ["0x7f000001", "not an IP address"],
  ["2130706433", "not an IP address"],
  ["127.1", "not an IP address"],
  ["127.0.0.1.", "not an IP address"],
  [" 127.0.0.1", "not an IP address"],
  ["localhost", "not an IP address"],
  ["", "not an IP address"],
];

describe("classifyAddress", () => {
  it.each(TABLE)("%s → %s", (address, reason) => {
    expect(forbidden(address)).toBe(reason);
  });

  it.each([
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::ffff:0:7f00:1", "127.0.0.1"],
    ["::7f00:1", "127.0.0.1"],
    ["64:ff9b::a9fe:a9fe", "169.254.169.254"],
    ["2002:7f00:1::1", "127.0.0.1"],
    ["::1", null],
    ["::", null],
    ["2001:0:808:808::80ff:fffe", null],
    ["2606:4700:4700::1111", null],
  ])("%s carries the IPv4 address %s", (address, inner) => {
    expect(embeddedIPv4(address)).toBe(inner);
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
