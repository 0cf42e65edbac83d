import { expect } from "vitest";
import { HttpSession } from "./http-session";
import type { TestServer } from "./test-server";

let counter = 0;
export const uniqueEmail = (prefix = "user") => `${prefix}-${Date.now().toString(36)}-${++counter}@example.com`;
export const PASSWORD = "correct-horse-battery";

/** The newest outbox mail to an address, optionally of one kind. */
export function lastMail(server: TestServer, to: string, kind?: string) {
  const mail = server.mailer.outbox().find((entry) => entry.to === to.toLowerCase() && (!kind || entry.kind === kind));
  if (!mail) throw new Error(`no ${kind ?? ""} mail to ${to}`);
  return mail;
}

/** Signs up through the API, opens the verification link, and returns the signed-in session. */
export async function signUpVerified(server: TestServer, options: { name?: string; email?: string; password?: string } = {}) {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? PASSWORD;
  const session = new HttpSession(server.url);
  const signUp = await session.request("/api/auth/sign-up/email", { body: { name: options.name ?? "Test User", email, password } });
  expect(signUp.status, signUp.text).toBe(200);
  const link = new URL(lastMail(server, email, "verification").actionUrl);
  const verify = await session.request(link.pathname + link.search);
  expect(verify.status, verify.text).toBe(302);
  const me = await session.request("/api/auth/get-session");
  expect(me.body?.user?.email).toBe(email.toLowerCase());
  return { session, email, password, userId: me.body.user.id as string };
}

/** Creates an organization through better-auth and makes it the session's active one. */
export async function createOrganization(session: HttpSession, name = "Acme") {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${Date.now().toString(36)}-${++counter}`;
  const created = await session.request("/api/auth/organization/create", { body: { name, slug } });
  expect(created.status, created.text).toBe(200);
  const active = await session.request("/api/auth/organization/set-active", { body: { organizationId: created.body.id } });
  expect(active.status, active.text).toBe(200);
  return created.body as { id: string; name: string; slug: string };
}
