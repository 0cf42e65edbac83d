import type { NextFunction, Request, Response } from "express";
import { isIP } from "node:net";
import { clientAddress } from "./client-address";
import { forwardedClientAddresses, forwardingHeaderNames } from "./forwarding-headers";

/** 127.0.0.0/8, ::1, and IPv4 loopback written as an IPv4-mapped IPv6 address (a dual-stack socket). */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  if (!address) return false;
  const bare = address.toLowerCase().replace(/^::ffff:/, "");
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return isIP(bare) === 6 && /^(0{0,4}:){7}0{0,3}1$|^::1$/.test(bare);
}

/**
 * Where a request comes from, as far as this machine can tell. The TCP peer must be loopback, so a
 * forged header from elsewhere never counts. Behind a reverse proxy on the same machine every peer
 * is loopback, so the headers decide:
 * - without TRUST_PROXY nothing says who the proxy's client is, so a request carrying any
 *   forwarding header is "forwarded" (refused: the client may be anyone);
 * - with TRUST_PROXY the client address the trusted X-Forwarded-For chain gives must be loopback,
 *   and so must every address a Forwarded `for=` or an X-Real-IP-like header names (a proxy that
 *   sets only those would otherwise leave the loopback peer as the client).
 */
export function requestSource(req: Pick<Request, "socket" | "headers">, trustedHops: number): "this machine" | "elsewhere" | "forwarded" {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return "elsewhere";
  if (trustedHops <= 0) return forwardingHeaderNames(req.headers).length > 0 ? "forwarded" : "this machine";
  const clients = [clientAddress(req as Request, trustedHops), ...forwardedClientAddresses(req.headers)];
  return clients.every(isLoopbackAddress) ? "this machine" : "elsewhere";
}

/**
 * Lets through a client on this machine only. To a client elsewhere the route does not exist
 * (404); a request through a proxy without TRUST_PROXY is told why it is refused (403), since the
 * one who meets that is the developer who put a proxy in front.
 */
export function loopbackOnly(trustedHops: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    const source = requestSource(req, trustedHops);
    if (source === "this machine") return next();
    if (source === "forwarded") {
      const headers = forwardingHeaderNames(req.headers).join(", ");
      const message = `Only a client on this machine may read this page, and this request came through a proxy (${headers}) that TRUST_PROXY does not trust. Open it directly, or set TRUST_PROXY to the number of proxies in front of Faultline.`;
      return void res.status(403).json({ error: { code: "FORBIDDEN", message, requestId: req.id } });
    }
    res.status(404).json({ error: { code: "NOT_FOUND", message: "Not found", requestId: req.id } });
  };
}
