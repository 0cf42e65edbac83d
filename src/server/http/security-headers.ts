import type { NextFunction, Request, Response } from "express";
import { avatarImageSources } from "../../shared/avatar";

export interface SecurityHeaderOptions {
  development: boolean;
  https: boolean;
}

/**
 * Security headers on every response, as name/value pairs computed once (ingest writes them in one
 * writeHead). The CSP forbids inline scripts in production; Vite's dev server needs inline scripts
 * and a websocket for hot reload, so development relaxes exactly that.
 */
export function securityHeaderList(options: SecurityHeaderOptions): [string, string][] {
  const scriptSrc = options.development ? "'self' 'unsafe-inline'" : "'self'";
  const connectSrc = options.development ? "'self' ws: wss:" : "'self'";
  const csp = [
    "default-src 'self'",
    `script-src ${scriptSrc}`,
    "style-src 'self' 'unsafe-inline'",
    // Profile pictures are the only outside images; see shared/avatar.ts for why the list is short.
    `img-src 'self' data: ${avatarImageSources().join(" ")}`,
    "font-src 'self' data:",
    `connect-src ${connectSrc}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return [
    ["Content-Security-Policy", csp],
    ["X-Content-Type-Options", "nosniff"],
    ["X-Frame-Options", "DENY"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=()"],
    ...(options.https ? [["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as [string, string]] : []),
  ];
}

/**
 * The headers of that list a browser reads only on a document (or a worker's script): the CSP,
 * framing, the opener policy and the permissions policy. A module script or stylesheet the page
 * loads is governed by the page's own headers, so the built client's scripts and styles leave
 * these off — on HTTP/1.1 they were 1.2 KB of every such response, more than most chunks weigh
 * compressed (client-static.ts; issue 37 item 13).
 */
export const DOCUMENT_ONLY_HEADERS = ["Content-Security-Policy", "X-Frame-Options", "Cross-Origin-Opener-Policy", "Permissions-Policy"] as const;

/** Express form: the headers on every response. */
export function securityHeaders(options: SecurityHeaderOptions) {
  const headers = securityHeaderList(options);
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
