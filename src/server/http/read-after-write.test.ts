import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { readAfterWrite, RecentTokenWrites, WROTE_RECENTLY_COOKIE } from "./read-after-write";

describe("RecentTokenWrites", () => {
  it("remembers a token's write for the window, and only that token's", () => {
    let now = 1_000;
    const writes = new RecentTokenWrites(10_000, () => now);
    writes.noteWrite("secret-a");
    expect(writes.wroteRecently("secret-a")).toBe(true);
    expect(writes.wroteRecently("secret-b")).toBe(false);
    now += 9_999;
    expect(writes.wroteRecently("secret-a")).toBe(true);
    now += 1;
    expect(writes.wroteRecently("secret-a")).toBe(false);
  });

  it("forgets expired writes and, past its bound, the oldest first", () => {
    let now = 0;
    const writes = new RecentTokenWrites(10_000, () => now, 3);
    for (const secret of ["a", "b", "c"]) writes.noteWrite(secret);
    writes.noteWrite("a"); // a is now the newest
    writes.noteWrite("d");
    expect(writes.size).toBe(3);
    expect(writes.wroteRecently("b")).toBe(false);
    expect(["a", "c", "d"].every((secret) => writes.wroteRecently(secret))).toBe(true);
    now = 20_000;
    writes.noteWrite("e");
    expect(writes.size).toBe(1);
  });
});

/** Runs the middleware on a bare request and response; returns what it decided and the Set-Cookie sent. */
function run(middleware: ReturnType<typeof readAfterWrite>, method: string, headers: Record<string, string> = {}) {
  const req = { method, headers } as unknown as Request;
  const sent: Record<string, unknown> = {};
  const res = {
    headers: {} as Record<string, unknown>,
    getHeader(name: string) {
      return this.headers[name];
    },
    setHeader(name: string, value: unknown) {
      this.headers[name] = value;
    },
    writeHead(this: { headers: Record<string, unknown> }) {
      Object.assign(sent, this.headers);
      return this;
    },
  };
  let called = false;
  middleware(req, res as unknown as Response, (() => (called = true)) as NextFunction);
  // A handler that replaces Set-Cookie, as better-auth's does, then sends.
  (res as unknown as ServerResponse).setHeader("set-cookie", ["session=abc"]);
  (res as unknown as ServerResponse).writeHead(200);
  return { called, readFromPrimary: (req as IncomingMessage).readFromPrimary, setCookie: sent["set-cookie"] as string[] };
}

describe("readAfterWrite", () => {
  const middleware = readAfterWrite({ windowSeconds: 10, secure: true });

  it("sends a session's write to the primary and marks it with a short-lived cookie, kept beside the handler's own", () => {
    const { called, readFromPrimary, setCookie } = run(middleware, "POST", { cookie: "session=abc" });
    expect(called).toBe(true);
    expect(readFromPrimary).toBe(true);
    expect(setCookie).toEqual(["session=abc", `${WROTE_RECENTLY_COOKIE}=1; Max-Age=10; Path=/; HttpOnly; SameSite=Lax; Secure`]);
  });

  it("reads the primary while the cookie is there, the replica's choice otherwise", () => {
    expect(run(middleware, "GET", { cookie: `session=abc; ${WROTE_RECENTLY_COOKIE}=1` }).readFromPrimary).toBe(true);
    const plain = run(middleware, "GET", { cookie: "session=abc" });
    expect(plain.readFromPrimary).toBe(false);
    expect(plain.setCookie).toEqual(["session=abc"]);
  });

  it("remembers an API token's write in this process, with no cookie", () => {
    const bearer = { authorization: "Bearer flt_token_one" };
    expect(run(middleware, "GET", bearer).readFromPrimary).toBe(false);
    const write = run(middleware, "DELETE", bearer);
    expect(write.readFromPrimary).toBe(true);
    expect(write.setCookie).toEqual(["session=abc"]);
    expect(run(middleware, "GET", bearer).readFromPrimary).toBe(true);
    expect(run(middleware, "GET", { authorization: "Bearer flt_token_two" }).readFromPrimary).toBe(false);
  });
});
