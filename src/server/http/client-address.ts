import type { IncomingMessage } from "node:http";

/**
 * The client's address as Express computes `req.ip` with `trust proxy` set to a hop count: the
 * socket peer, unless it is a trusted proxy, then X-Forwarded-For read from the right, believing
 * at most `trustedHops` entries. For code that runs before (or without) Express.
 */
export function clientAddress(req: IncomingMessage, trustedHops: number): string | null {
  const peer = req.socket.remoteAddress ?? null;
  if (trustedHops <= 0) return peer;
  const forwarded = req.headers["x-forwarded-for"];
  if (!forwarded) return peer;
  const chain = (Array.isArray(forwarded) ? forwarded.join(",") : forwarded).split(",").map((part) => part.trim());
  // [peer, nearest proxy's client, …, the original client]: stop at the first hop not trusted.
  const hops = [peer, ...chain.reverse()];
  return hops[Math.min(trustedHops, hops.length - 1)] || peer;
}
