import type { NextFunction, Request, Response } from "express";
import { isIP } from "node:net";
import { clientAddress } from "./client-address";

/** 127.0.0.0/8, ::1, and IPv4 loopback written as an IPv4-mapped IPv6 address (a dual-stack socket). */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  if (!address) return false;
  const bare = address.toLowerCase().replace(/^::ffff:/, "");
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return isIP(bare) === 6 && /^(0{0,4}:){7}0{0,3}1$|^::1$/.test(bare);
}

/**
 * Whether a request comes from this machine. The TCP peer must be loopback, so a forged
 * X-Forwarded-For from elsewhere never counts. Behind a reverse proxy on the same machine every
 * peer is loopback, so with TRUST_PROXY the forwarded client address must be loopback as well.
 */
export function isFromThisMachine(req: Pick<Request, "socket" | "headers">, trustedHops: number): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return false;
  return trustedHops <= 0 || isLoopbackAddress(clientAddress(req as Request, trustedHops));
}

/** Answers 404 (as if the route did not exist) to any client that is not on this machine. */
export function loopbackOnly(trustedHops: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (isFromThisMachine(req, trustedHops)) return next();
    res.status(404).json({ error: { code: "NOT_FOUND", message: "Not found", requestId: req.id } });
  };
}
