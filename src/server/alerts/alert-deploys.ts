import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";

/**
 * For each issue, the minutes from the last deploy of one of its project's releases that finished
 * at or before the issue was first seen, to that first sighting (issues with no such deploy are
 * absent). The "new issue after a deploy" trigger compares it with its `minutes`. Deploys belong to
 * releases, and a release to its projects (release_projects): a deploy of a release of another
 * project never counts.
 */
export async function minutesSinceLastDeploy(db: Db, organizationId: string, projectId: string, issueIds: string[]): Promise<Map<string, number>> {
  if (issueIds.length === 0) return new Map();
  const rows = await executeRows<{ issue_id: string; minutes: number | string }>(
    db,
    sql`select i.id as issue_id, extract(epoch from (i.first_seen - max(d.date_finished))) / 60 as minutes
        from issues i
        join release_projects rp on rp.organization_id = ${organizationId} and rp.project_id = i.project_id
        join deploys d on d.organization_id = ${organizationId} and d.release_id = rp.release_id and d.date_finished <= i.first_seen
        where i.organization_id = ${organizationId} and i.project_id = ${projectId}::uuid
          and i.id in (${sql.join(
            issueIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})
        group by i.id, i.first_seen`,
  );
  return new Map(rows.map((row) => [row.issue_id, Number(row.minutes)]));
}
