import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { indexOrder } from "../db/order";
import { preparedPerDb } from "../db/prepared-per-db";
import { issueActivities, user } from "../db/schema/index";

export const TAG_KEYS_LIMIT = 20;
export const TAG_VALUES_LIMIT = 10;
export const ACTIVITY_LIMIT = 100;

interface TagRow {
  key: string;
  value: string;
  count: number | string;
  total: number | string;
}

/** The issue's tag keys by total count (at most 20), each with its 10 most frequent values. */
export async function selectIssueTags(db: Db, organizationId: string, projectId: string, issueId: string) {
  const scope = sql`organization_id = ${organizationId} and project_id = ${projectId}::uuid and issue_id = ${issueId}::uuid`;
  const rows = await executeRows<TagRow>(
    db,
    sql`with keys as (
          select key, sum(count) as total from issue_tag_counts where ${scope}
          group by key order by total desc, key limit ${TAG_KEYS_LIMIT}
        ),
        ranked as (
          select t.key, t.value, t.count, row_number() over (partition by t.key order by t.count desc, t.value) as rank
          from issue_tag_counts t join keys k on k.key = t.key
          where t.organization_id = ${organizationId} and t.project_id = ${projectId}::uuid and t.issue_id = ${issueId}::uuid
        )
        select r.key, r.value, r.count, k.total from ranked r join keys k on k.key = r.key
        where r.rank <= ${TAG_VALUES_LIMIT}
        order by k.total desc, r.key, r.count desc, r.value`,
  );
  const byKey = new Map<string, { key: string; totalCount: number; values: { value: string; count: number }[] }>();
  for (const row of rows) {
    const entry = byKey.get(row.key) ?? { key: row.key, totalCount: Number(row.total), values: [] };
    entry.values.push({ value: row.value, count: Number(row.count) });
    byKey.set(row.key, entry);
  }
  return [...byKey.values()];
}

const issueActivity = preparedPerDb((db) =>
  db
    .select({
      id: issueActivities.id,
      kind: issueActivities.kind,
      from: issueActivities.fromValue,
      to: issueActivities.toValue,
      createdAt: issueActivities.createdAt,
      via: issueActivities.via,
      actorId: user.id,
      actorName: user.name,
      actorEmail: user.email,
    })
    .from(issueActivities)
    .leftJoin(user, eq(user.id, issueActivities.actorUserId))
    .where(
      and(
        eq(issueActivities.organizationId, sql.placeholder("organizationId")),
        eq(issueActivities.projectId, sql.placeholder("projectId")),
        eq(issueActivities.issueId, sql.placeholder("issueId")),
      ),
    )
    .orderBy(indexOrder(issueActivities.createdAt, "DESC"), indexOrder(issueActivities.id, "DESC"))
    .limit(ACTIVITY_LIMIT)
    .prepare("issue_activity"),
);

/** Who changed what, newest first, with the actor's name and email (null once the user is deleted). */
export function selectIssueActivity(db: Db, organizationId: string, projectId: string, issueId: string) {
  return issueActivity(db).execute({ organizationId, projectId, issueId });
}
