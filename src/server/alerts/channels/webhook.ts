import { createHmac, timingSafeEqual } from "node:crypto";
import type { AlertMessage } from "../alert-message";

export const SIGNATURE_HEADER = "Faultline-Signature";

/**
 * The generic webhook body (documented in the README and the OpenAPI description): the facts as
 * JSON, untouched — the receiver escapes for wherever it shows them.
 */
export function webhookBody(message: AlertMessage) {
  const issue = message.issue;
  return {
    type: message.reason,
    rule: { id: message.rule.id, name: message.rule.name },
    issue: issue
      ? {
          id: issue.id,
          title: issue.title,
          culprit: issue.culprit,
          level: issue.level,
          status: issue.status,
          url: message.url,
          eventCount: issue.eventCount,
          userCount: issue.userCount,
          firstSeen: issue.firstSeen.toISOString(),
          lastSeen: issue.lastSeen.toISOString(),
          environment: issue.environment,
          release: issue.release,
        }
      : null,
    project: { id: message.project.id, name: message.project.name },
    test: message.kind === "test",
    ...(message.kind === "digest"
      ? {
          suppressedCount: message.suppressedCount ?? 0,
          issues: (message.digest ?? []).map((entry) => ({
            id: entry.issueId,
            title: entry.title,
            reason: entry.reason,
            url: entry.url,
            eventCount: entry.eventCount,
          })),
        }
      : {}),
  };
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, as Stripe-style receivers verify it. */
export function signatureHeader(secret: string, rawBody: string, at = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex")}`;
}

/** What a receiver does (tests use it as the reference): constant-time compare, and a freshness window against replays. */
export function verifySignature(secret: string, rawBody: string, header: string, toleranceSeconds = 300, now = new Date()): boolean {
  const parts = Object.fromEntries(header.split(",").map((part) => part.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex"));
  const given = Buffer.from(parts.v1);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
