import { genericOAuth } from "better-auth/plugins";
import type { Env } from "../env";

/** A sign-in button: better-auth serves built-in and generic OIDC providers alike at /sign-in/social. */
export interface PublicProvider {
  id: string;
  name: string;
}

const DISPLAY_NAMES: Record<string, string> = {
  github: "GitHub",
  gitlab: "GitLab",
  linkedin: "LinkedIn",
  paypal: "PayPal",
  tiktok: "TikTok",
  huggingface: "Hugging Face",
  vk: "VK",
};

const displayName = (id: string) => DISPLAY_NAMES[id] ?? id.charAt(0).toUpperCase() + id.slice(1);

/**
 * Google normally uses better-auth's built-in provider. When GOOGLE_DISCOVERY_URL is set (a
 * Google-compatible OIDC issuer, or the local OIDC stand-in in tests) it goes through the generic
 * OIDC flow instead, because the built-in provider's endpoints are fixed.
 */
function googleViaDiscovery(env: Env) {
  return Boolean(env.GOOGLE_DISCOVERY_URL && env.socialProviders.google);
}

/**
 * Providers whose word on an email address is enough to link to an existing account (spec §5:
 * "a trusted provider or a verified provider email"). Google is trusted only as Google itself: an
 * issuer named by GOOGLE_DISCOVERY_URL may let people pick any address, so with it an identity
 * links only when the issuer says `email_verified: true` (else anyone could take over an account).
 */
export function trustedProviderIds(env: Env): string[] {
  return env.socialProviders.google && !googleViaDiscovery(env) ? ["google"] : [];
}

/**
 * With REQUIRE_EMAIL_VERIFICATION on, a social user whose provider reports the address unverified
 * is refused a session and mailed a link, exactly like a password user (spec §5: "Unverified users
 * are blocked when verification is required").
 */
export function socialProvidersConfig(env: Env) {
  const entries = Object.entries(env.socialProviders).filter(([id]) => !(id === "google" && googleViaDiscovery(env)));
  return Object.fromEntries(entries.map(([id, credentials]) => [id, { ...credentials, requireEmailVerification: env.REQUIRE_EMAIL_VERIFICATION }]));
}

export function genericOAuthPlugin(env: Env) {
  const google = env.socialProviders.google;
  if (!googleViaDiscovery(env) || !google) return [];
  return [
    genericOAuth({
      config: [
        {
          providerId: "google",
          name: "Google",
          discoveryUrl: env.GOOGLE_DISCOVERY_URL,
          clientId: google.clientId,
          clientSecret: google.clientSecret,
          scopes: ["openid", "email", "profile"],
          pkce: true,
          requireEmailVerification: env.REQUIRE_EMAIL_VERIFICATION,
        },
      ],
    }),
  ];
}

/** What the login and signup screens show: a button per configured provider, Google first. */
export function publicProviders(env: Env): PublicProvider[] {
  return Object.keys(env.socialProviders)
    .sort((a, b) => (a === "google" ? -1 : b === "google" ? 1 : a.localeCompare(b)))
    .map((id) => ({ id, name: displayName(id) }));
}
