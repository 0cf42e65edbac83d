import type { NextFunction, Request, Response } from "express";

/** Every request body outside ingest (which has its own limits) stops here: auth, tRPC, REST. */
export const MAX_BODY_BYTES = 1024 * 1024;

function tooLarge(req: Request, res: Response) {
  // The rest of an oversized body is not worth reading: close the connection after answering.
  res.setHeader("Connection", "close");
  res.status(413).json({ error: { code: "PAYLOAD_TOO_LARGE", message: "Request body too large", requestId: req.id } });
}

function declaredLength(req: Request): number | null {
  const header = req.headers["content-length"];
  if (header === undefined) return null;
  const length = Number(header);
  return Number.isFinite(length) ? length : null;
}

/** Refuses a declared Content-Length over the limit before anything reads the body; `exempt` paths enforce their own. */
export function bodyLimit(maxBytes = MAX_BODY_BYTES, exempt?: RegExp) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (exempt?.test(req.path)) return next();
    const length = declaredLength(req);
    if (length !== null && length > maxBytes) return tooLarge(req, res);
    next();
  };
}

/**
 * For handlers that read the raw request themselves (better-auth): reads the body here, counting
 * as it arrives, so a chunked body is cut at the limit instead of being buffered whole. The text
 * is left on `req.body`, where better-auth's Node adapter takes an already consumed body from.
 */
export function bufferedBody(maxBytes = MAX_BODY_BYTES) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const length = declaredLength(req);
    if (length !== null && length > maxBytes) return tooLarge(req, res);
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      req.off("data", onData);
      if (size > 0) req.body = Buffer.concat(chunks).toString("utf8");
      next();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        done = true;
        req.off("data", onData);
        req.pause();
        tooLarge(req, res);
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => finish());
    // An aborted upload has no one left to answer.
    req.once("error", () => {
      done = true;
      req.off("data", onData);
    });
  };
}
