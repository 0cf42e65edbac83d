import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

declare module "http" {
  interface IncomingMessage {
    id?: string;
  }
}

const VALID_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Keeps a proxy's X-Request-Id when it looks sane, else makes one; echoed on the response. */
export function requestId(req: Request, res: Response, next: NextFunction) {
  const incoming = req.headers["x-request-id"];
  req.id = typeof incoming === "string" && VALID_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-Id", req.id);
  next();
}
