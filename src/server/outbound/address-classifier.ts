import { BlockList, isIP } from "node:net";

/**
 * Which addresses an outbound request (alert webhooks) may never reach unless the operator allows
 * them: loopback, private, link-local (cloud metadata at 169.254.169.254), CGNAT, multicast,
 * reserved and documentation ranges, in IPv4 and IPv6, including IPv4 addresses carried inside
 * IPv6 (mapped, NAT64, 6to4) so a wrapped 127.0.0.1 is still loopback.
 */
const RANGES_V4: [string, number, string][] = [
  ["0.0.0.0", 8, "this network"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "carrier-grade NAT"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

const RANGES_V6: [string, number, string][] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["100::", 64, "discard"],
  ["2001:db8::", 32, "documentation"],
  ["fc00::", 7, "unique local (private)"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local"],
  ["ff00::", 8, "multicast"],
];

function blockListOf(ranges: [string, number, string][], family: "ipv4" | "ipv6") {
  return ranges.map(([network, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { list, reason, family };
  });
}

const BLOCKED_V4 = blockListOf(RANGES_V4, "ipv4");
const BLOCKED_V6 = blockListOf(RANGES_V6, "ipv6");

export interface AddressVerdict {
  address: string;
  /** Null when the address is public. */
  forbidden: string | null;
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
export function embeddedIPv4(address: string): string | null {
  const groups = expandIPv6(address);
  if (!groups) return null;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return v4(groups[6], groups[7]);
  // IPv4-compatible (deprecated ::a.b.c.d) — except :: and ::1 themselves.
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

/** Why this IP address is forbidden as an outbound target, or null when it is public. Never connects. */
export function classifyAddress(address: string): AddressVerdict {
  const family = isIP(address);
  if (family === 4) {
    const hit = BLOCKED_V4.find((entry) => entry.list.check(address, "ipv4"));
    return { address, forbidden: hit ? hit.reason : null };
  }
  if (family === 6) {
    const bare = address.split("%")[0];
    const inner = embeddedIPv4(bare);
    if (inner) {
      const verdict = classifyAddress(inner);
      return { address, forbidden: verdict.forbidden ? `${verdict.forbidden} (IPv4 ${inner} inside IPv6)` : null };
    }
    const hit = BLOCKED_V6.find((entry) => entry.list.check(bare, "ipv6"));
    return { address, forbidden: hit ? hit.reason : null };
  }
  return { address, forbidden: "not an IP address" };
}
