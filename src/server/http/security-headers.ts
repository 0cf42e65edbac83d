import type { NextFunction, Request, Response } from "express";

/**
 * Security headers on every response. The CSP forbids inline scripts in production; Vite's dev
 * server needs inline scripts and a websocket for hot reload, so development relaxes exactly that.
 */
export function securityHeaders(options: { development: boolean; https: boolean }) {
  const scriptSrc = options.development ? "'self' 'unsafe-inline'" : "'self'";
  const connectSrc = options.development ? "'self' ws: wss:" : "'self'";
  const csp = [
    "default-src 'self'",
    `script-src ${scriptSrc}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src ${connectSrc}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader("Content-Security-Policy", csp);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (options.https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}
