import { BlockList, isIP } from "node:net";

/**
 * OUTBOUND_ALLOW: targets a self-hosted operator lets alert webhooks reach although the address
 * classifier forbids them (an internal chat server). Entries are `host:port` (that exact host and
 * port, whatever it resolves to) or a CIDR range (`10.1.2.0/24`, `fd00::/8`: any port).
 */
export interface OutboundAllowList {
  allowsTarget(host: string, port: number): boolean;
  allowsAddress(address: string): boolean;
}

export class InvalidOutboundAllowEntry extends Error {}

export function parseOutboundAllow(value: string | undefined): OutboundAllowList {
  const targets = new Set<string>();
  const ranges = new BlockList();
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const cidr = entry.match(/^(.+)\/(\d{1,3})$/);
    if (cidr) {
      const family = isIP(cidr[1]);
      const prefix = Number(cidr[2]);
      if (!family || prefix > (family === 4 ? 32 : 128)) throw new InvalidOutboundAllowEntry(`OUTBOUND_ALLOW: "${entry}" is not a CIDR range`);
      ranges.addSubnet(cidr[1], prefix, family === 4 ? "ipv4" : "ipv6");
      continue;
    }
    const target = entry.match(/^\[?([^\]]+?)\]?:(\d{1,5})$/);
    if (!target || Number(target[2]) > 65535) throw new InvalidOutboundAllowEntry(`OUTBOUND_ALLOW: "${entry}" is neither host:port nor a CIDR range`);
    targets.add(targetKey(target[1], Number(target[2])));
  }
  return {
    allowsTarget: (host, port) => targets.has(targetKey(host, port)),
    allowsAddress: (address) => {
      const family = isIP(address);
      return family !== 0 && ranges.check(address, family === 4 ? "ipv4" : "ipv6");
    },
  };
}

function targetKey(host: string, port: number) {
  return `${host.replace(/^\[|\]$/g, "").toLowerCase()}:${port}`;
}
