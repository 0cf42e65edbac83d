import { randomUUID } from "node:crypto";
/**
 * A local OpenID provider (oauth2-mock-server on loopback) standing in for Google through
 * GOOGLE_DISCOVERY_URL, and the browser's redirect dance through it.
 */
import { OAuth2Server, type MutableResponse, type MutableToken } from "oauth2-mock-server";
import { expect } from "vitest";
import type { HttpSession } from "../helpers/http-session";
import { uniqueEmail } from "../helpers/test-users";
import { AUTH } from "./auth-kit";

export const OIDC_CLIENT_ID = "faultline-test-client";

export interface Identity {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

export interface OidcStandIn {
  issuerUrl: string;
  /** Environment of a Faultline whose Google is this provider. */
  env: Record<string, string>;
  /** The person the provider signs in next; every token and userinfo answer describes them. */
  next(overrides?: Partial<Identity>): Identity;
  stop(): Promise<void>;
}

export async function startOidcStandIn(): Promise<OidcStandIn> {
  const oidc = new OAuth2Server();
  await oidc.issuer.keys.generate("RS256");
  await oidc.start(0, "127.0.0.1");
  const issuerUrl = oidc.issuer.url as string;
  let identity: Identity = { sub: "nobody", email: uniqueEmail("google"), email_verified: true, name: "Nobody" };
  // A token id per token, as real providers' tokens differ each time: two tokens signed in the same
  // second would otherwise be identical (a refresh would look like no refresh).
  oidc.service.on("beforeTokenSigning", (token: MutableToken) => {
    Object.assign(token.payload, identity, { jti: randomUUID() });
  });
  oidc.service.on("beforeUserinfo", (response: MutableResponse) => {
    response.body = { ...identity };
  });
  return {
    issuerUrl,
    env: {
      GOOGLE_CLIENT_ID: OIDC_CLIENT_ID,
      GOOGLE_CLIENT_SECRET: "google-test-secret",
      GOOGLE_DISCOVERY_URL: `${issuerUrl}/.well-known/openid-configuration`,
    },
    next(overrides = {}) {
      identity = {
        sub: `google-${Math.random().toString(36).slice(2)}`,
        email: uniqueEmail("google"),
        email_verified: true,
        name: "Grace Google",
        ...overrides,
      };
      return identity;
    },
    stop: () => oidc.stop(),
  };
}

/** Starts a Google sign-in (or link) in `browser`; returns the provider's authorize URL and the answer. */
export async function startGoogleFlow(browser: HttpSession, path = `${AUTH}/sign-in/social`, body: Record<string, unknown> = { callbackURL: "/dashboard" }) {
  const start = await browser.request(path, { body: { provider: "google", ...body } });
  expect(start.status, start.text).toBe(200);
  return { start, authorize: new URL(start.body.url) };
}

/** The provider's side: it signs the person in at once and sends the browser back with a code. */
export async function atProvider(authorize: URL) {
  const answer = await fetch(authorize, { redirect: "manual" });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get("location") as string);
}

/** The whole dance, as a browser would do it. Returns Faultline's final answer. */
export async function googleDance(browser: HttpSession, body?: Record<string, unknown>) {
  const { authorize } = await startGoogleFlow(browser, undefined, body);
  const callback = await atProvider(authorize);
  const done = await browser.request(callback.pathname + callback.search);
  return { done, callback };
}
