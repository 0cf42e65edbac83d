import type { IncomingHttpHeaders } from "node:http";

/**
 * Headers by which a reverse proxy says that it forwarded a request, and often for whom: the
 * standard ones (Forwarded, Via, X-Forwarded-*), and the single-address ones proxies and CDNs set
 * instead (nginx's X-Real-IP, Cloudflare's CF-Connecting-IP, Akamai's True-Client-IP, …).
 */
const CLIENT_ADDRESS_HEADERS = ["x-real-ip", "x-client-ip", "true-client-ip", "cf-connecting-ip", "fastly-client-ip", "x-cluster-client-ip"];
const MARKER_HEADERS = ["forwarded", "via", ...CLIENT_ADDRESS_HEADERS];

/** The forwarding headers a request carries (lower-case names), empty when it came straight from its client. */
export function forwardingHeaderNames(headers: IncomingHttpHeaders): string[] {
  return Object.keys(headers)
    .map((name) => name.toLowerCase())
    .filter((name) => MARKER_HEADERS.includes(name) || name.startsWith("x-forwarded-"));
}

/**
 * Every client address a request's Forwarded `for=` parameters and single-address headers name
 * (X-Forwarded-For is not read here: Express's trusted chain reads it, see client-address.ts).
 * Values come back bare — no quotes, brackets or port — and `unknown` or an obfuscated `_name`
 * come back as they are, which no address check accepts.
 */
export function forwardedClientAddresses(headers: IncomingHttpHeaders): string[] {
  const values = (name: string) => {
    const value = headers[name];
    return value === undefined ? [] : (Array.isArray(value) ? value : [value]).flatMap((line) => line.split(","));
  };
  const fromForwarded = values("forwarded").flatMap((element) =>
    element
      .split(";")
      .map((pair) => pair.trim().match(/^for\s*=\s*(.*)$/i)?.[1])
      .filter((value): value is string => value !== undefined),
  );
  return [...fromForwarded, ...CLIENT_ADDRESS_HEADERS.flatMap(values)].map(bareAddress);
}

/** `"[2001:db8::17]:4711"` → `2001:db8::17`, `192.0.2.60:80` → `192.0.2.60`. */
function bareAddress(value: string): string {
  const unquoted = value.trim().replace(/^"(.*)"$/, "$1");
  const bracketed = unquoted.match(/^\[([^\]]*)\]/);
  if (bracketed) return bracketed[1];
  return /^[\d.]+:\d+$/.test(unquoted) ? unquoted.replace(/:\d+$/, "") : unquoted;
}
