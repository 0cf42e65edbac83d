import type { NextFunction, Request, Response } from "express";
import { CLIENT_IP_HEADER } from "../auth/auth";

/**
 * better-auth keys its rate limits on one header. We overwrite it with Express's req.ip, which
 * only believes X-Forwarded-For from TRUST_PROXY hops, so a client rotating that header from an
 * untrusted address still lands in one bucket.
 */
export function clientIpForAuth(req: Request, _res: Response, next: NextFunction) {
  req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
  next();
}
