import type { NextFunction, Request, Response } from "express";

/** Methods that change nothing (the read replica's read-after-write rule uses the same set). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cookie-authenticated state changes must come from our own pages. A browser always sends Origin
 * on cross-site writes, so a foreign Origin (or a cross-site fetch) is refused before any handler.
 * tRPC queries go over GET and stay readable only same-origin because no CORS headers are sent.
 */
export function originCheck(trustedOrigins: string[]) {
  const trusted = new Set(trustedOrigins.map((origin) => origin.replace(/\/$/, "")));
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.headers.origin;
    const fetchSite = req.headers["sec-fetch-site"];
    const foreignOrigin = typeof origin === "string" && origin !== "null" && !trusted.has(origin);
    const nullOrigin = origin === "null";
    if (foreignOrigin || nullOrigin || fetchSite === "cross-site") {
      res.status(403).json({ error: { code: "FORBIDDEN", message: "Invalid origin", requestId: req.id } });
      return;
    }
    next();
  };
}
