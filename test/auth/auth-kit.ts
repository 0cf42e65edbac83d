/**
 * Small helpers shared by the authentication suites: signing up/in over HTTP, reading the outbox,
 * looking at better-auth's rows, and moving the clock the in-process server sees.
 */
import { eq } from "drizzle-orm";
import { expect, vi } from "vitest";
import * as schema from "../../src/server/db/schema/index";
import { HttpSession, type HttpResponse } from "../helpers/http-session";
import type { TestServer } from "../helpers/test-server";
import { PASSWORD, uniqueEmail } from "../helpers/test-users";

export const AUTH = "/api/auth";
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The path and query of an absolute action link, to replay it against the test server. */
export function pathOf(url: string) {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** A redirect's Location, resolved against the server (better-auth writes both forms). */
export function location(server: TestServer, response: HttpResponse) {
  const value = response.headers.get("location");
  expect(value, `expected a redirect, got ${response.status} ${response.text}`).toBeTruthy();
  return new URL(value as string, server.url);
}

export async function signUp(server: TestServer, options: { email?: string; password?: string; name?: string; callbackURL?: string; origin?: string } = {}) {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? PASSWORD;
  const session = new HttpSession(server.url, options.origin ?? server.url);
  const response = await session.request(`${AUTH}/sign-up/email`, {
    body: { name: options.name ?? "Test User", email, password, ...(options.callbackURL ? { callbackURL: options.callbackURL } : {}) },
  });
  return { session, response, email, password };
}

/** Signs in from a fresh browser; `origin` overrides the Origin sent on writes. */
export async function signIn(server: TestServer, email: string, password: string, options: { origin?: string; headers?: Record<string, string> } = {}) {
  const session = new HttpSession(server.url, options.origin ?? server.url);
  const response = await session.request(`${AUTH}/sign-in/email`, { body: { email, password }, headers: options.headers });
  return { session, response };
}

/** The signed-in user of a browser, or null (get-session answers null when signed out). */
export async function currentUser(session: HttpSession) {
  const response = await session.request(`${AUTH}/get-session`);
  expect(response.status).toBe(200);
  return (response.body?.user ?? null) as null | { id: string; email: string; emailVerified: boolean; name: string };
}

export function mailsTo(server: TestServer, to: string, kind?: string) {
  return server.mailer.outbox().filter((mail) => mail.to === to.toLowerCase() && (!kind || mail.kind === kind));
}

/**
 * Runs `fn` with the process clock moved by `offsetMs`. The app runs in this process, so
 * better-auth sees the moved clock too. Only Date is faked: timers and I/O keep working.
 */
export async function atClockOffset<T>(offsetMs: number, fn: () => Promise<T>): Promise<T> {
  const target = Date.now() + offsetMs;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(target);
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}

export async function userRowByEmail(server: TestServer, email: string) {
  const [row] = await server.database.db.select().from(schema.user).where(eq(schema.user.email, email.toLowerCase()));
  return row;
}

export async function userRowById(server: TestServer, id: string) {
  const [row] = await server.database.db.select().from(schema.user).where(eq(schema.user.id, id));
  return row;
}

/** Rows better-auth keeps per user; account deletion must leave none of them. */
export async function rowsOfUser(server: TestServer, userId: string) {
  const db = server.database.db;
  const [users, sessions, accounts] = await Promise.all([
    db.select().from(schema.user).where(eq(schema.user.id, userId)),
    db.select().from(schema.session).where(eq(schema.session.userId, userId)),
    db.select().from(schema.account).where(eq(schema.account.userId, userId)),
  ]);
  return { users: users.length, sessions: sessions.length, accounts: accounts.length };
}

/** Parses one Set-Cookie line into its name, value and lower-cased attributes. */
export function parseSetCookie(line: string) {
  const [pair, ...attributes] = line.split(";").map((part) => part.trim());
  const index = pair.indexOf("=");
  const attrs = new Map<string, string>();
  for (const attribute of attributes) {
    const eqAt = attribute.indexOf("=");
    if (eqAt === -1) attrs.set(attribute.toLowerCase(), "");
    else attrs.set(attribute.slice(0, eqAt).toLowerCase(), attribute.slice(eqAt + 1));
  }
  return { name: pair.slice(0, index), value: pair.slice(index + 1), attrs };
}
