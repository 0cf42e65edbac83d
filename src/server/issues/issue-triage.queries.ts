import { and, eq, inArray } from "drizzle-orm";
import type { IssueSeverity, IssueStatus } from "../../shared/triage.inputs";
import type { IssueActivityVia } from "../../shared/triage.views";
import type { Db } from "../db/client";
import { issueActivities, issues } from "../db/schema/index";
import { statusChange, statusesMovableTo } from "./issue-state";
import { issueScope } from "./issue.queries";

export interface TriageActor {
  organizationId: string;
  projectId: string;
  userId: string;
  /** The AI agent acting on the user's approval (recorded in the activity); absent: the user themselves. */
  via?: IssueActivityVia;
}

/**
 * Moves the given issues of one project to `status` as issue-state.ts allows and records one
 * activity row per issue that really changed; ids of other projects or tenants match nothing. The
 * rows are locked first so a concurrent ingest reopening an issue cannot slip between the read of
 * `from` and the update.
 */
export function updateIssueStatuses(db: Db, actor: TriageActor, issueIds: string[], status: IssueStatus): Promise<string[]> {
  return db.transaction(async (tx) => {
    const changing = await tx
      .select({ id: issues.id, status: issues.status })
      .from(issues)
      .where(and(issueScope(actor.organizationId, actor.projectId), inArray(issues.id, issueIds), inArray(issues.status, statusesMovableTo(status))))
      .orderBy(issues.id)
      .for("update");
    if (changing.length === 0) return [];
    const ids = changing.map((row) => row.id);
    await tx
      .update(issues)
      .set(statusChange(status, new Date()))
      .where(and(issueScope(actor.organizationId, actor.projectId), inArray(issues.id, ids)));
    await tx.insert(issueActivities).values(
      changing.map((row) => ({
        organizationId: actor.organizationId,
        projectId: actor.projectId,
        issueId: row.id,
        actorUserId: actor.userId,
        via: actor.via ?? null,
        kind: "status",
        fromValue: row.status,
        toValue: status,
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
