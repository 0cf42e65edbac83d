import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { IssueSeverity, IssueStatus } from "../../shared/triage.inputs";
import type { IssueActivityVia } from "../../shared/triage.views";
import type { Db } from "../db/client";
import { issueActivities, issues } from "../db/schema/index";
import { NO_RELEASE_RESOLUTION, statusChange, statusesMovableTo, type ReleaseResolution } from "./issue-state";
import { issueScope } from "./issue.queries";

export interface TriageActor {
  organizationId: string;
  projectId: string;
  userId: string;
  /** The AI agent acting on the user's approval (recorded in the activity); absent: the user themselves. */
  via?: IssueActivityVia;
}

/** The activity row of a resolution: a plain status change, or resolved in a release (`to` naming it). */
function statusActivity(from: string, status: IssueStatus, release: ReleaseResolution) {
  if (status !== "RESOLVED" || release.resolvedInRelease === null) return { kind: "status", fromValue: from, toValue: status };
  return { kind: release.resolvedInNextRelease ? "resolved_in_next_release" : "resolved_in_release", fromValue: from, toValue: release.resolvedInRelease };
}

/**
 * Moves the given issues of one project to `status` as issue-state.ts allows and records one
 * activity row per issue that really changed; ids of other projects or tenants match nothing. The
 * rows are locked first so a concurrent ingest reopening an issue cannot slip between the read of
 * `from` and the update. Resolving in a release also applies to an issue already RESOLVED with
 * another release resolution (or none): its resolution is what changes.
 */
export function updateIssueStatuses(
  db: Db,
  actor: TriageActor,
  issueIds: string[],
  status: IssueStatus,
  release: ReleaseResolution = NO_RELEASE_RESOLUTION,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const movable = inArray(issues.status, statusesMovableTo(status));
    const otherResolution = and(
      eq(issues.status, "RESOLVED"),
      or(sql`${issues.resolvedInRelease} is distinct from ${release.resolvedInRelease}`, ne(issues.resolvedInNextRelease, release.resolvedInNextRelease)),
    );
    const changing = await tx
      .select({ id: issues.id, status: issues.status })
      .from(issues)
      .where(
        and(issueScope(actor.organizationId, actor.projectId), inArray(issues.id, issueIds), status === "RESOLVED" ? or(movable, otherResolution) : movable),
      )
      .orderBy(issues.id)
      .for("update");
    if (changing.length === 0) return [];
    const ids = changing.map((row) => row.id);
    await tx
      .update(issues)
      .set(statusChange(status, new Date(), release))
      .where(and(issueScope(actor.organizationId, actor.projectId), inArray(issues.id, ids)));
    await tx.insert(issueActivities).values(
      changing.map((row) => ({
        organizationId: actor.organizationId,
        projectId: actor.projectId,
        issueId: row.id,
        actorUserId: actor.userId,
        via: actor.via ?? null,
        ...statusActivity(row.status, status, release),
      })),
    );
    return ids;
  });
}

/** Sets one issue's severity, recording the change; answers false when nothing changed. */
export function updateIssueSeverity(db: Db, actor: TriageActor, issueId: string, severity: IssueSeverity): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ severity: issues.severity })
      .from(issues)
      .where(and(issueScope(actor.organizationId, actor.projectId), eq(issues.id, issueId)))
      .for("update");
    if (!current || current.severity === severity) return false;
    await tx
      .update(issues)
      .set({ severity })
      .where(and(issueScope(actor.organizationId, actor.projectId), eq(issues.id, issueId)));
    await tx.insert(issueActivities).values({
      organizationId: actor.organizationId,
      projectId: actor.projectId,
      issueId,
      actorUserId: actor.userId,
      via: actor.via ?? null,
      kind: "severity",
      fromValue: current.severity,
      toValue: severity,
    });
    return true;
  });
}
