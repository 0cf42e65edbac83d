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

export function socialProvidersConfig(env: Env) {
  const entries = Object.entries(env.socialProviders).filter(([id]) => !(id === "google" && googleViaDiscovery(env)));
  return Object.fromEntries(entries.map(([id, credentials]) => [id, { ...credentials }]));
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
