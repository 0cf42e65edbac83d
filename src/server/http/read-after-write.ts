import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { bearerTokenOf } from "../api-tokens/api-token-auth";
import { SAFE_METHODS } from "./origin-check";

declare module "http" {
  interface IncomingMessage {
    /** Set by readAfterWrite: this request's reads must see the caller's own writes (context.ts). */
    readFromPrimary?: boolean;
  }
}

/** Present for READ_REPLICA_MAX_LAG_SECONDS after a session's write; its value means nothing. */
export const WROTE_RECENTLY_COOKIE = "faultline_wrote";

/** Tokens remembered at once; past it the oldest write is forgotten first. */
const MAX_REMEMBERED_TOKENS = 10_000;

/**
 * The API tokens that wrote within the window, by a hash of their secret. Per process: a token
 * that writes through one app replica and reads through another within the window may read the
 * standby, whose lag is at most the same bound (READ_REPLICA_MAX_LAG_SECONDS).
 */
export class RecentTokenWrites {
  private readonly lastWrite = new Map<string, number>();
  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxTokens = MAX_REMEMBERED_TOKENS,
  ) {}

  private static key(secret: string) {
    return createHash("sha256").update(secret).digest("base64url");
  }

  noteWrite(secret: string) {
    const key = RecentTokenWrites.key(secret);
    // Re-inserted, so the Map's order is the order of last writes and the oldest goes first.
    this.lastWrite.delete(key);
    this.lastWrite.set(key, this.now());
    for (const [oldest, at] of this.lastWrite) {
      if (this.lastWrite.size <= this.maxTokens && this.now() - at < this.windowMs) break;
      this.lastWrite.delete(oldest);
    }
  }

  wroteRecently(secret: string): boolean {
    const at = this.lastWrite.get(RecentTokenWrites.key(secret));
    return at !== undefined && this.now() - at < this.windowMs;
  }

  get size() {
    return this.lastWrite.size;
  }
}

function hasCookie(header: string | undefined, name: string): boolean {
  return (header ?? "").split(";").some((pair) => pair.trim().startsWith(`${name}=`));
}

/**
 * Adds a Set-Cookie when the headers are sent rather than now: better-auth's handler replaces the
 * Set-Cookie header with its own (setHeader), which would drop one set before it.
 */
function appendCookieOnHeaders(res: ServerResponse, cookie: string) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const existing = this.getHeader("set-cookie");
    const cookies = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
    if (!cookies.some((value) => value.startsWith(`${WROTE_RECENTLY_COOKIE}=`))) this.setHeader("set-cookie", [...cookies, cookie]);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
}

export interface ReadAfterWriteOptions {
  windowSeconds: number;
  /** Secure cookie (API_URL is https). */
  secure: boolean;
  tokens?: RecentTokenWrites;
}

/**
 * "A person's reads right after their own write go to the primary": a request that may write
 * (any method but GET, HEAD, OPTIONS) reads the primary and marks its caller, a session with a
 * short-lived cookie (so every app replica knows), an API token in this process's memory
 * (RecentTokenWrites); the caller's reads within `windowSeconds` then read the primary too.
 */
export function readAfterWrite(options: ReadAfterWriteOptions) {
  const tokens = options.tokens ?? new RecentTokenWrites(options.windowSeconds * 1000);
  const cookie = `${WROTE_RECENTLY_COOKIE}=1; Max-Age=${options.windowSeconds}; Path=/; HttpOnly; SameSite=Lax${options.secure ? "; Secure" : ""}`;
  return (req: Request, res: Response, next: NextFunction) => {
    const secret = bearerTokenOf(req.headers.authorization);
    const request: IncomingMessage = req;
    if (!SAFE_METHODS.has(req.method)) {
      request.readFromPrimary = true;
      if (secret) tokens.noteWrite(secret);
      else appendCookieOnHeaders(res, cookie);
    } else {
      request.readFromPrimary = secret ? tokens.wroteRecently(secret) : hasCookie(req.headers.cookie, WROTE_RECENTLY_COOKIE);
    }
    next();
  };
}
