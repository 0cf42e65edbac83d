import type { AlertTrigger } from "../../shared/alert.inputs";
import type { AlertIssue } from "./alert-subject";

/** Why a notification goes out. */
export type AlertReason = AlertTrigger["type"] | "digest" | "test";

/** One notification's content, before a channel renders (and escapes) it. Every string from an event is untrusted. */
export interface AlertMessage {
  kind: "alert" | "digest" | "test";
  reason: AlertReason;
  rule: { id: string; name: string };
  project: { id: string; name: string };
  issue: AlertIssue | null;
  /** The issue's page, or the project's issue list for project-wide alerts and digests. */
  url: string;
  /** The trigger's numbers, for spike and rate alerts. */
  trigger?: AlertTrigger;
  /** A digest's count of held-back notifications. */
  suppressedCount?: number;
  /** A digest's held alerts, oldest first (at most DIGEST_LISTED of them; suppressedCount says how many in all). */
  digest?: DigestEntry[];
}

/** One held alert as a digest lists it: its issue (title untrusted), why it alerted, its link. */
export interface DigestEntry {
  issueId: string | null;
  title: string;
  reason: AlertReason;
  url: string;
  /** The issue's exceptions now (null for project-wide alerts). */
  eventCount: number | null;
}

/** A digest lists this many held alerts; the rest are counted. */
export const DIGEST_LISTED = 50;

const REASON_LABELS: Record<AlertReason, string> = {
  new_issue: "New issue",
  regression: "Regression",
  issue_frequency: "Spike",
  event_rate: "Event rate",
  level: "Level",
  new_issue_after_deploy: "New issue after a deploy",
  digest: "Digest",
  test: "Test",
};

/** A digest entry's title and count (untrusted: channels escape it). */
function digestEntryText(entry: DigestEntry): string {
  const count = entry.eventCount === null ? "" : ` (${entry.eventCount.toLocaleString("en-US")} ${entry.eventCount === 1 ? "event" : "events"})`;
  return `${clip(entry.title, 200)}${count}`;
}

/** A digest entry as one line of text: "New issue: TypeError: … (12 events)". */
export const digestLine = (entry: DigestEntry) => `${REASON_LABELS[entry.reason]}: ${digestEntryText(entry)}`;

/** The message's first line (trusted text apart from the project and rule names, which channels escape too). */
export function headlineOf(message: AlertMessage): string {
  const { project, trigger } = message;
  switch (message.reason) {
    case "new_issue":
      return `New issue in ${project.name}`;
    case "regression":
      return `Regression in ${project.name}: a resolved issue is back`;
    case "issue_frequency":
      return `Spike in ${project.name}: an issue was seen more than ${trigger?.count} times in ${trigger?.minutes} min`;
    case "event_rate":
      return `Event rate in ${project.name} above ${trigger?.count} per ${trigger?.minutes} min`;
    case "new_issue_after_deploy":
      return `New issue in ${project.name} within ${trigger?.minutes} min of a deploy`;
    case "level":
      return `A ${message.issue?.level ?? trigger?.level} issue in ${project.name}`;
    case "digest": {
      const count = message.suppressedCount ?? 0;
      return `${message.rule.name}: ${count.toLocaleString("en-US")} more ${count === 1 ? "alert" : "alerts"} in ${project.name}`;
    }
    case "test":
      return `Test notification from the alert rule "${message.rule.name}"`;
  }
}

/** The facts every channel shows, as label/value pairs (values untrusted). */
export function factsOf(message: AlertMessage): [string, string][] {
  const issue = message.issue;
  if (message.digest)
    return [
      ["Project", message.project.name],
      ...message.digest.slice(0, 9).map((entry): [string, string] => [REASON_LABELS[entry.reason], digestEntryText(entry)]),
    ];
  if (!issue) return [["Project", message.project.name]];
  const facts: [string, string | null][] = [
    ["Level", issue.level],
    ["Environment", issue.environment],
    ["Events", issue.eventCount.toLocaleString("en-US")],
    ["Users", issue.userCount.toLocaleString("en-US")],
    ["First seen", issue.firstSeen.toISOString()],
    ["Last seen", issue.lastSeen.toISOString()],
    ["Release", issue.release],
    ["Where", issue.topFrame],
  ];
  return facts.filter((fact): fact is [string, string] => Boolean(fact[1]));
}

/** Untrusted text is cut before any channel sees it: a 100 kB title must not become a 100 kB chat message. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
