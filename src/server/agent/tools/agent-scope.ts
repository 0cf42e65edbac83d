import type { Db } from "../../db/client";
import type { ProjectCheckedContext, ProjectRow } from "../../projects/project-scope";

/**
 * What every agent tool acts in, fixed by the server before the model is called: the caller's
 * organization and role (from their membership or an API token), and the one project the
 * conversation is about. Nothing the model sends can change it — tool inputs carry row ids only,
 * and every service the tools call checks those ids against this organization and project.
 */
export interface AgentScope {
  db: Db;
  organizationId: string;
  projectId: string;
  userId: string;
  role: string;
  /** The conversation's time window; tools use it when the model names none. */
  window?: { from: Date; to: Date };
  /** The project's row as the server checked it before the model was called (its services need not read it again). */
  project?: ProjectRow;
}

/** The triage services' context for this scope: the actor is the user, the organization theirs. */
export function orgContextOf(scope: AgentScope): ProjectCheckedContext {
  return { db: scope.db, org: { organizationId: scope.organizationId, userId: scope.userId, role: scope.role }, checkedProject: scope.project };
}
