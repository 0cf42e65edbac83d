import { BlockList, isIP } from "node:net";

/**
 * Which addresses an outbound request (alert webhooks) may never reach unless the operator allows
 * them with OUTBOUND_ALLOW. The rule: every range of the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries is refused, whatever its "globally reachable" column says. The ranges that
 * column marks reachable (192.0.0.9/.10, 192.31.196/24, 192.52.193/24, 192.175.48/24,
 * 2001:1::1-3, 2001:3::/32, 2001:4:112::/48, 2001:20::/28, 2620:4f:8000::/48) are anycast service
 * addresses of infrastructure protocols (PCP, TURN, AMT relays, AS112 DNS sinks) or identifiers
 * (ORCHIDv2): none is where a webhook receiver lives, so refusing them costs nothing and keeps the
 * rule one line long. The exceptions are the forms that carry an IPv4 address inside IPv6 (mapped,
 * SIIT-translated, IPv4-compatible, NAT64 64:ff9b::/96, 6to4): they are judged by the IPv4 address
 * they carry, so a wrapped 127.0.0.1 is loopback and a wrapped public address stays reachable.
 * Beyond the registries, IPv6 outside 2000::/3 (the only space IANA hands out as global unicast)
 * is refused too: a range added to the registry there later is covered before this list is.
 */
const RANGES_V4: [string, number, string][] = [
  ["0.0.0.0", 8, "this network"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "carrier-grade NAT"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  // IETF protocol assignments: DS-Lite, the dummy address, PCP and TURN anycast, NAT64 discovery.
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation"],
  ["192.31.196.0", 24, "AS112 DNS"],
  ["192.52.193.0", 24, "AMT relays"],
  ["192.88.99.0", 24, "6to4 relay anycast"],
  ["192.168.0.0", 16, "private"],
  ["192.175.48.0", 24, "AS112 DNS"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["255.255.255.255", 32, "limited broadcast"],
  ["240.0.0.0", 4, "reserved"],
];

/** Checked after the IPv4-carrying forms; the first match names the reason. */
const RANGES_V6: [string, number, string][] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  // Local-use NAT64 (RFC 8215): where the IPv4 address sits depends on the prefix length the
  // operator chose (/48 to /96), so it cannot be read reliably; the registry marks it not global.
  ["64:ff9b:1::", 48, "local-use NAT64"],
  ["100::", 64, "discard"],
  ["100:0:0:1::", 64, "dummy prefix"],
  // Teredo (2001::/32) lies here too: obsolete (its relays are gone), and the IPv4 addresses it
  // carries (the server's, and the client's bit-inverted) are the tunnel's, not a web host's.
  ["2001::", 23, "IETF protocol assignments"],
  ["2001:db8::", 32, "documentation"],
  ["2620:4f:8000::", 48, "AS112 DNS"],
  ["3fff::", 20, "documentation"],
  ["5f00::", 16, "segment routing (SRv6)"],
  ["fc00::", 7, "unique local (private)"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local"],
  ["ff00::", 8, "multicast"],
];

function blockListOf(ranges: [string, number, string][], family: "ipv4" | "ipv6") {
  return ranges.map(([network, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { list, reason };
  });
}

const BLOCKED_V4 = blockListOf(RANGES_V4, "ipv4");
const BLOCKED_V6 = blockListOf(RANGES_V6, "ipv6");
const GLOBAL_UNICAST_V6 = blockListOf([["2000::", 3, "global unicast"]], "ipv6")[0].list;

export interface AddressVerdict {
  address: string;
  /** Null when the address is public. */
  forbidden: string | null;
}

/**
 * The IPv4 address an IPv6 address carries and is judged by: IPv4-mapped ::ffff:a.b.c.d,
 * SIIT-translated ::ffff:0:a.b.c.d, IPv4-compatible ::a.b.c.d (deprecated), NAT64 64:ff9b::/96,
 * 6to4 2002:AABB:CCDD::/48. Null for any other address.
 */
export function embeddedIPv4(address: string): string | null {
  const groups = expandIPv6(address);
  if (!groups) return null;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return v4(groups[6], groups[7]);
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return v4(groups[6], groups[7]);
  // IPv4-compatible — except :: and ::1 themselves.
  if (zeros(0, 6) && (groups[6] !== 0 || groups[7] > 1)) return v4(groups[6], groups[7]);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4(groups[6], groups[7]);
  if (groups[0] === 0x2002) return v4(groups[1], groups[2]);
  return null;
}

/** Eight 16-bit groups of an IPv6 address (dotted IPv4 tail included), or null when it is not one. */
export function expandIPv6(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.split("%")[0].toLowerCase();
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const fill = text.includes("::") ? 8 - headGroups.length - tailGroups.length : 0;
  const groups = [...headGroups, ...Array<string>(fill).fill("0"), ...tailGroups].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * Why this IP address is forbidden as an outbound target, or null when it is public. Never
 * connects. Takes an address as a resolver or a parsed URL gives it, brackets and zone id
 * (`[fe80::1%eth0]`) allowed; any other spelling — IPv4 with leading zeros, octal, hex or a single
 * integer, which some parsers read as 127.0.0.1 and others refuse — is no address: forbidden.
 */
export function classifyAddress(address: string): AddressVerdict {
  const bare = address.replace(/^\[(.*)\]$/, "$1").split("%")[0];
  const family = isIP(bare);
  if (family === 4) {
    const hit = BLOCKED_V4.find((entry) => entry.list.check(bare, "ipv4"));
    return { address, forbidden: hit ? hit.reason : null };
  }
  if (family === 6) {
    const inner = embeddedIPv4(bare);
    if (inner) {
      const verdict = classifyAddress(inner);
      return { address, forbidden: verdict.forbidden ? `${verdict.forbidden} (IPv4 ${inner} inside IPv6)` : null };
    }
    const hit = BLOCKED_V6.find((entry) => entry.list.check(bare, "ipv6"));
    if (hit) return { address, forbidden: hit.reason };
    return { address, forbidden: GLOBAL_UNICAST_V6.check(bare, "ipv6") ? null : "reserved (not global unicast)" };
  }
  return { address, forbidden: "not an IP address" };
}
