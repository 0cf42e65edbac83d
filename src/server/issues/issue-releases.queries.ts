import { sql } from "drizzle-orm";
import type { IssueRelease } from "../../shared/triage.views";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";

export const ISSUE_RELEASES_LIMIT = 20;

/**
 * The releases the issue's events came from with their counts: ingest counts the `release` tag per
 * issue (issue_tag_counts, its primary key serves the issue's release values), so this reads no
 * event. Newest release first by the organization's release order (creation); a version the
 * organization has no release row for sorts last.
 */
export async function selectIssueReleases(db: Db, organizationId: string, projectId: string, issueId: string): Promise<IssueRelease[]> {
  const rows = await executeRows<{ version: string; count: number | string }>(
    db,
    sql`select t.value as version, t.count
        from issue_tag_counts t
        left join releases r on r.organization_id = t.organization_id and r.version = t.value
        where t.issue_id = ${issueId}::uuid and t.key = 'release' and t.organization_id = ${organizationId} and t.project_id = ${projectId}::uuid
        order by r.created_at desc nulls last, r.id desc, t.value
        limit ${ISSUE_RELEASES_LIMIT}`,
  );
  return rows.map((row) => ({ version: row.version, count: Number(row.count) }));
}
