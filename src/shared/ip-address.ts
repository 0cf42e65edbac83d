/**
 * IP addresses and CIDR blocks as AWS WAF IP sets hold them, parsed without node:net so the
 * client validates the same way the server does. Addresses are canonicalised (IPv4 without
 * leading zeros, IPv6 lower-case and compressed per RFC 5952), so "already blocked" compares
 * equal strings whatever form the SDK, the user or AWS wrote.
 */
export interface ParsedCidr {
  family: 4 | 6;
  /** The address with its prefix, e.g. `203.0.113.7/32`, `2001:db8::1/128`. */
  cidr: string;
  address: string;
  prefix: number;
}

/** The widest blocks Faultline writes: a slip of the keyboard must not block a whole continent (or everyone). */
export const MIN_PREFIX = { 4: 8, 6: 32 } as const;

function parseIpv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
  return bytes.every((byte) => byte >= 0 && byte <= 255) ? bytes : null;
}

function parseIpv6(text: string): number[] | null {
  let input = text.toLowerCase();
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two groups.
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(input);
  if (v4) {
    const bytes = parseIpv4(v4[1]!);
    if (!bytes) return null;
    input = `${input.slice(0, v4.index)}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const halves = input.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? head.length !== 8 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => parseInt(group, 16));
}

function formatIpv6(groups: number[]): string {
  // RFC 5952: compress the longest run of two or more zero groups (the first one on a tie).
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8;) {
    if (groups[start] !== 0) {
      start += 1;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end += 1;
    if (end - start > bestLength) [bestStart, bestLength] = [start, end - start];
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

/** A single address or a CIDR block, canonicalised; null when it is neither. A bare address becomes `/32` or `/128`. */
export function parseIpOrCidr(text: string): ParsedCidr | null {
  const [addressText, prefixText, extra] = text.trim().split("/");
  if (extra !== undefined || !addressText) return null;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const v4 = parseIpv4(addressText);
  if (v4) {
    const prefix = prefixText === undefined ? 32 : Number(prefixText);
    if (prefix > 32) return null;
    const address = v4.join(".");
    return { family: 4, address, prefix, cidr: `${address}/${prefix}` };
  }
  const v6 = addressText.includes(":") ? parseIpv6(addressText) : null;
  if (!v6) return null;
  const prefix = prefixText === undefined ? 128 : Number(prefixText);
  if (prefix > 128) return null;
  const address = formatIpv6(v6);
  return { family: 6, address, prefix, cidr: `${address}/${prefix}` };
}

/** The canonical form of a CIDR AWS holds (left as it is when it does not parse). */
export const canonicalCidr = (text: string) => parseIpOrCidr(text)?.cidr ?? text;
