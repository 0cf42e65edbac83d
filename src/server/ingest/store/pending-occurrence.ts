import type { IngestGrouping } from "../../grouping/ingest-grouping";
import type { NormalizedOccurrence } from "../../../shared/occurrence.types";

/** What the HTTP layer hands to the batch writer for one event. */
export interface PendingOccurrence {
  organizationId: string;
  projectId: string;
  occurrence: NormalizedOccurrence;
  /** v1-only groupings (older callers, tests) have no legacy fingerprint or parts: they still store. */
  grouping: IngestGrouping;
  receivedAt: Date;
  /** Values the data settings scrubbed from it (event-scrubber.ts), counted in scrub_daily_counts once stored. */
  scrubbed?: number;
}

/** A counter bump for the outcomes table (client-report discards, rejections). */
export interface PendingOutcome {
  organizationId: string;
  projectId: string;
  outcome: "accepted" | "rate_limited" | "invalid" | "too_large" | "filtered" | "client_discard";
  reason: string;
  category: string;
  quantity: number;
  at: Date;
}

/** The "user" an occurrence counts toward for "users affected": id, else email, username or IP. */
export function userKeyOf(occurrence: NormalizedOccurrence): string | null {
  const user = occurrence.user;
  if (!user) return null;
  if (user.id) return `id:${user.id}`;
  if (user.email) return `email:${user.email}`;
  if (user.username) return `username:${user.username}`;
  if (user.ip) return `ip:${user.ip}`;
  return null;
}

export const hourOf = (date: Date) => new Date(Math.floor(date.getTime() / 3_600_000) * 3_600_000);
