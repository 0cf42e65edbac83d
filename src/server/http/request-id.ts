import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { NextFunction, Request, Response } from "express";

declare module "http" {
  interface IncomingMessage {
    id?: string;
  }
}

const VALID_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Keeps a proxy's X-Request-Id when it looks sane, else makes one. */
export function assignRequestId(req: IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  req.id = typeof incoming === "string" && VALID_ID.test(incoming) ? incoming : randomUUID();
  return req.id;
}

/** Express form: the id is echoed on the response. */
export function requestId(req: Request, res: Response, next: NextFunction) {
  res.setHeader("X-Request-Id", assignRequestId(req));
  next();
}
