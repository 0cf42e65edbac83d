import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { issues, occurrences } from "../db/schema/index";
import type { NormalizedFrame, NormalizedOccurrence } from "../../shared/occurrence.types";

/** What an alert says about its issue: the facts a reader needs to decide whether to look now. */
export interface AlertIssue {
  id: string;
  projectId: string;
  title: string;
  culprit: string | null;
  level: string;
  status: string;
  eventCount: number;
  userCount: number;
  firstSeen: Date;
  lastSeen: Date;
  environment: string | null;
  release: string | null;
  /** "function (file:line)" of the crashing in-app frame, if any. */
  topFrame: string | null;
  tags: Record<string, string>;
  /** Every environment the issue was seen in (raw names). */
  environments: string[];
}

/** The frame a reader wants first: the innermost in-app frame of the thrown exception. */
export function topInAppFrame(occurrence: Pick<NormalizedOccurrence, "exceptions" | "stacktrace">): string | null {
  const thrown = occurrence.exceptions?.at(-1);
  const frames: NormalizedFrame[] = thrown?.frames?.length ? thrown.frames : (occurrence.stacktrace ?? []);
  const frame = [...frames].reverse().find((candidate) => candidate.inApp) ?? frames.at(-1);
  if (!frame) return null;
  const where = frame.filename ?? frame.absPath ?? frame.module;
  const line = frame.lineno ? `:${frame.lineno}` : "";
  return `${frame.function ?? "<anonymous>"}${where ? ` (${where}${line})` : ""}`;
}

/** The issue and its newest occurrence, in the caller's organization and project. */
export async function loadAlertIssue(db: Db, organizationId: string, projectId: string, issueId: string): Promise<AlertIssue | null> {
  return (await loadAlertIssues(db, organizationId, projectId, [issueId])).get(issueId) ?? null;
}

/**
 * Several issues with their newest occurrences, in one statement; ids outside the project are left
 * out, and so are issues being deleted (marked): no rule fires about them, nor does a digest list them.
 */
export async function loadAlertIssues(db: Db, organizationId: string, projectId: string, issueIds: string[]): Promise<Map<string, AlertIssue>> {
  const found = new Map<string, AlertIssue>();
  if (issueIds.length === 0) return found;
  const rows = await db
    .select({ issue: issues, data: occurrences.data, environment: occurrences.environment, release: occurrences.release })
    .from(issues)
    .leftJoin(
      occurrences,
      and(eq(occurrences.organizationId, organizationId), eq(occurrences.projectId, projectId), eq(occurrences.id, issues.lastOccurrenceId)),
    )
    .where(
      and(eq(issues.organizationId, organizationId), eq(issues.projectId, projectId), inArray(issues.id, [...new Set(issueIds)]), isNull(issues.deletionId)),
    );
  for (const { issue, ...occurrence } of rows) {
    // jsonText parses the stored document on read.
    const parsed = (occurrence.data ?? {}) as Partial<NormalizedOccurrence>;
    found.set(issue.id, {
      id: issue.id,
      projectId: issue.projectId,
      title: issue.title,
      culprit: issue.culprit,
      level: issue.level,
      status: issue.status,
      eventCount: issue.eventCount,
      userCount: issue.userCount,
      firstSeen: issue.firstSeen,
      lastSeen: issue.lastSeen,
      environment: occurrence.environment ?? null,
      release: occurrence.release ?? issue.lastRelease,
      topFrame: topInAppFrame({ exceptions: parsed.exceptions ?? [], stacktrace: parsed.stacktrace ?? [] }),
      tags: parsed.tags ?? {},
      environments: issue.environments,
    });
  }
  return found;
}
