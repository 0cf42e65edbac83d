import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import type { TriageActor } from "./issue-triage.queries";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface LockedIssue {
  id: string;
  fingerprint: string;
  title: string;
  event_count: number;
  first_seen: Date;
}

const idList = (ids: string[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** The issues of one project, row-locked in id order (as triage and ingest lock them). */
export function lockIssues(tx: Tx, actor: TriageActor, ids: string[]): Promise<LockedIssue[]> {
  return executeRows<LockedIssue>(
    tx,
    sql`select id, fingerprint, title, event_count, first_seen from issues
        where organization_id = ${actor.organizationId} and project_id = ${actor.projectId} and id in (${idList(ids)})
        order by id for update`,
  );
}

/**
 * Before events move between issues, every issue's own fingerprint gets its issue_fingerprints row
 * (issues made before grouping v2 have none) and its events stored before v2 get their fingerprint:
 * from then on the rows say where each fingerprint and each event belongs, which unmerge relies on.
 */
export async function recordOwnFingerprints(tx: Tx, actor: TriageActor, ids: string[]) {
  await tx.execute(sql`
    insert into issue_fingerprints (organization_id, project_id, fingerprint, issue_id, grouping_version)
    select organization_id, project_id, fingerprint, id, grouping_version from issues
    where organization_id = ${actor.organizationId} and project_id = ${actor.projectId} and id in (${idList(ids)})
    on conflict (project_id, fingerprint) do nothing`);
  await tx.execute(sql`
    update occurrences o set fingerprint = i.fingerprint from issues i
    where i.id = o.issue_id and o.organization_id = ${actor.organizationId} and o.project_id = ${actor.projectId}
      and o.issue_id in (${idList(ids)}) and o.fingerprint is null`);
}

/**
 * Moves everything of `sources` into `target` — fingerprints (so their future events follow), events,
 * rollups, users, activity — sums the counters, deletes the sources and records the merge. The caller
 * holds the row locks (lockIssues) and has recorded the fingerprints (recordOwnFingerprints).
 *
 * Race with ingest: a batch statement that read issue_fingerprints before this commits still names a
 * source; its upsert waits on the source's row lock and, the row gone, creates it again with that
 * batch's events (no event is lost; the issue shows up again and can be merged once more). Events
 * looked up after the commit go to the target.
 */
export async function mergeInto(tx: Tx, actor: TriageActor, target: LockedIssue, sources: LockedIssue[]) {
  const { organizationId: org, projectId: project } = actor;
  const from = idList(sources.map((s) => s.id));
  const all = idList([target.id, ...sources.map((s) => s.id)]);
  const to = sql`${target.id}::uuid`;
  await tx.execute(sql`update issue_fingerprints set issue_id = ${to} where project_id = ${project} and issue_id in (${from})`);
  await tx.execute(sql`update occurrences set issue_id = ${to} where organization_id = ${org} and project_id = ${project} and issue_id in (${from})`);
  await tx.execute(sql`
    insert into issue_hourly_counts (organization_id, project_id, issue_id, environment, hour, count)
    select organization_id, project_id, ${to}, environment, hour, sum(count) from issue_hourly_counts
    where organization_id = ${org} and project_id = ${project} and issue_id in (${from}) group by 1, 2, 4, 5
    on conflict (issue_id, environment, hour) do update set count = issue_hourly_counts.count + excluded.count`);
  await tx.execute(sql`
    insert into issue_daily_counts (organization_id, project_id, issue_id, environment, day, count)
    select organization_id, project_id, ${to}, environment, day, sum(count) from issue_daily_counts
    where organization_id = ${org} and project_id = ${project} and issue_id in (${from}) group by 1, 2, 4, 5
    on conflict (issue_id, environment, day) do update set count = issue_daily_counts.count + excluded.count`);
  await tx.execute(sql`
    insert into issue_tag_counts (organization_id, project_id, issue_id, key, value, count)
    select organization_id, project_id, ${to}, key, value, sum(count) from issue_tag_counts
    where organization_id = ${org} and project_id = ${project} and issue_id in (${from}) group by 1, 2, 4, 5
    on conflict (issue_id, key, value) do update set count = issue_tag_counts.count + excluded.count`);
  await tx.execute(sql`
    insert into issue_users (issue_id, user_key)
    select distinct ${to}, user_key from issue_users where issue_id in (${from})
    on conflict do nothing`);
  await tx.execute(sql`update issue_activities set issue_id = ${to} where organization_id = ${org} and project_id = ${project} and issue_id in (${from})`);
  // Counters are summed, not recounted: events already dropped by retention still count.
  await tx.execute(sql`
    update issues t set
      event_count = a.event_count, first_seen = a.first_seen, last_seen = a.last_seen,
      first_release = a.first_release, last_release = a.last_release, environments = a.environments,
      last_occurrence_id = a.last_occurrence_id, last_message = a.last_message,
      user_count = (select count(*) from issue_users u where u.issue_id = t.id)
    from (
      select sum(event_count) as event_count, min(first_seen) as first_seen, max(last_seen) as last_seen,
             (array_agg(first_release order by first_seen) filter (where first_release is not null))[1] as first_release,
             (array_agg(last_release order by last_seen desc) filter (where last_release is not null))[1] as last_release,
             array(select distinct e from issues i, unnest(i.environments) as e where i.id in (${all}) order by e) as environments,
             (array_agg(last_occurrence_id order by last_seen desc) filter (where last_occurrence_id is not null))[1] as last_occurrence_id,
             (array_agg(last_message order by last_seen desc) filter (where last_message is not null))[1] as last_message
      from issues where organization_id = ${org} and project_id = ${project} and id in (${all})
    ) a
    where t.id = ${to}`);
  await tx.execute(sql`delete from issues where organization_id = ${org} and project_id = ${project} and id in (${from})`);
  await tx.execute(sql`
    insert into issue_activities (organization_id, project_id, issue_id, actor_user_id, kind, from_value, to_value)
    select ${org}, ${project}, ${to}, ${actor.userId}, 'merge', s.title, ${target.title}
    from json_to_recordset(${JSON.stringify(sources.map((s) => ({ title: s.title })))}::json) as s(title text)`);
}
