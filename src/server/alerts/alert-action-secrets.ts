import { randomBytes } from "node:crypto";
import type { SecretBox, SecretContext } from "../secrets/secret-box";

/**
 * Sealing of a URL action's target and signing secret (secrets/secret-box.ts). Slack, Discord and
 * Teams incoming-webhook URLs are credentials in themselves, so the URL is sealed too; the
 * additional data binds each value to its project, action and field. Both columns are listed in
 * secrets/sealed-fields.ts, which re-seals them on key rotation.
 */
export const alertActionSecretContext = (projectId: string, actionId: string, field: "url" | "signingSecret"): SecretContext => ({
  owner: `project:${projectId}`,
  purpose: "alert-action",
  field: `${actionId}:${field}`,
});

export const sealActionUrl = (box: SecretBox, projectId: string, actionId: string, url: string) =>
  box.seal(url, alertActionSecretContext(projectId, actionId, "url"));
export const openActionUrl = (box: SecretBox, projectId: string, actionId: string, sealed: string) =>
  box.open(sealed, alertActionSecretContext(projectId, actionId, "url"));
export const sealSigningSecret = (box: SecretBox, projectId: string, actionId: string, secret: string) =>
  box.seal(secret, alertActionSecretContext(projectId, actionId, "signingSecret"));
export const openSigningSecret = (box: SecretBox, projectId: string, actionId: string, sealed: string) =>
  box.open(sealed, alertActionSecretContext(projectId, actionId, "signingSecret"));

/** A new webhook signing secret (shown to the user once). */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString("base64url")}`;

/** What the rule view shows of a URL: its scheme and host, never the path or query that carry the token. */
export function urlHostOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}
