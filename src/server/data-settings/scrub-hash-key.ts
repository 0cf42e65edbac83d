import { createHmac } from "node:crypto";

/**
 * The key of the `hash` scrubbing method for one organization: HMAC of the server's secret
 * (AUTH_SECRET) and the organization id. A plain hash of a card number or a phone number is
 * reversed by hashing every candidate; keyed by a secret only the server holds it cannot be, and
 * per organization the same value hashes differently in two tenants (no correlation across them).
 * Rotating AUTH_SECRET changes every hash from then on.
 */
export function scrubHashKey(serverSecret: string, organizationId: string): string {
  return createHmac("sha256", serverSecret).update(`faultline:scrub-hash:${organizationId}`).digest("hex");
}
