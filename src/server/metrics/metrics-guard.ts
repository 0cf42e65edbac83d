import { createHash, timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { forwardingHeaderNames } from "../http/forwarding-headers";
import { requestSource } from "../http/loopback-only";

/** Compares digests, so neither the time taken nor an early length check tells how much of a guess was right. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match ? match[1] : null;
}

/**
 * Who may read /metrics. With METRICS_TOKEN, whoever sends it as a Bearer token (a Prometheus
 * elsewhere); without, a client on this machine only, judged as the dev outbox judges it
 * (loopback-only.ts): behind a proxy without TRUST_PROXY every peer is loopback, so a request
 * carrying forwarding headers is refused. Refusals say why (403), as a scrape config is what fails.
 */
export function metricsGuard(token: string | undefined, trustedHops: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (token) {
      const given = bearerToken(req.headers.authorization);
      if (given !== null && sameToken(given, token)) return next();
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      return void res.status(401).json({ error: { code: "UNAUTHORIZED", message: "Send METRICS_TOKEN as a Bearer token.", requestId: req.id } });
    }
    const source = requestSource(req, trustedHops);
    if (source === "this machine") return next();
    const message =
      source === "forwarded"
        ? `Without METRICS_TOKEN only a client on this machine may read /metrics, and this request came through a proxy (${forwardingHeaderNames(req.headers).join(", ")}) that TRUST_PROXY does not trust. Set METRICS_TOKEN, or TRUST_PROXY to the number of proxies in front of Faultline.`
        : "Without METRICS_TOKEN only a client on this machine may read /metrics. Set METRICS_TOKEN to scrape from elsewhere.";
    res.status(403).json({ error: { code: "FORBIDDEN", message, requestId: req.id } });
  };
}
