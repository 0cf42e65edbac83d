import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import type { TriageActor } from "./issue-triage.queries";
import type { LockedIssue } from "./issue-merge.queries";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface SplitIssue {
  id: string;
  fingerprint: string;
  title: string;
  culprit: string | null;
  level: string;
  platform: string | null;
  severity: string;
  groupingVersion: number;
}

/** The fingerprints that send events to an issue (after recordOwnFingerprints, its own included). */
export async function fingerprintsOf(tx: Tx, actor: TriageActor, issueId: string): Promise<{ fingerprint: string; grouping_version: number }[]> {
  return executeRows(
    tx,
    sql`select fingerprint, grouping_version from issue_fingerprints
        where organization_id = ${actor.organizationId} and project_id = ${actor.projectId} and issue_id = ${issueId}::uuid order by fingerprint`,
  );
}

/** The newest event of a fingerprint in an issue, to title the issue it is split into. */
export async function newestDocument(tx: Tx, actor: TriageActor, issueId: string, fingerprint: string): Promise<string | null> {
  const [row] = await executeRows<{ data: string }>(
    tx,
    sql`select data from occurrences
        where organization_id = ${actor.organizationId} and project_id = ${actor.projectId} and issue_id = ${issueId}::uuid and fingerprint = ${fingerprint}
        order by timestamp desc limit 1`,
  );
  return row?.data ?? null;
}

/** The tag counts the tags breakdown keeps, recounted from stored events (see occurrence-tags.ts). */
const tagsOfEvents = (issueId: string, where: ReturnType<typeof sql>) => sql`
  select t.key, t.value, count(*) as count
  from (select replace(o.data, '\\u0000', '\\ufffd')::jsonb as d from occurrences o where o.issue_id = ${issueId}::uuid and ${where}) e
  cross join lateral (
    select 'environment' as key, e.d->>'environment' as value
    union all select 'release', e.d->>'release'
    union all select 'level', e.d->>'level'
    union all select 'server_name', e.d->>'serverName'
    union all select 'handled', case e.d->>'handled' when 'true' then 'yes' when 'false' then 'no' end
    union all select key, value from jsonb_each_text(case when jsonb_typeof(e.d->'tags') = 'object' then e.d->'tags' else '{}'::jsonb end)
  ) t
  where t.value is not null
  group by 1, 2`;

/**
 * Creates `split` from the events of one fingerprint of `source`: points the fingerprint at it (so
 * future events follow), moves those events, builds its counters, rollups, tag counts and users from
 * them and takes the same amounts off the source (its tag counts are recounted from what it keeps).
 * The caller holds the source's row lock.
 */
export async function splitOut(tx: Tx, actor: TriageActor, source: LockedIssue, split: SplitIssue) {
  const { organizationId: org, projectId: project } = actor;
  const from = sql`${source.id}::uuid`;
  const to = sql`${split.id}::uuid`;
  const moved = sql`o.organization_id = ${org} and o.project_id = ${project} and o.fingerprint = ${split.fingerprint}`;
  await tx.execute(sql`
    insert into issues (id, organization_id, project_id, fingerprint, grouping_version, title, culprit, level, platform, severity,
                        first_seen, last_seen, event_count, first_release, last_release, environments, last_occurrence_id, last_message)
    select ${to}, ${org}, ${project}, ${split.fingerprint}, ${split.groupingVersion}, ${split.title}, ${split.culprit}, ${split.level}, ${split.platform},
           ${split.severity}, coalesce(min(o.timestamp), now()), coalesce(max(o.timestamp), now()), count(*),
           (array_agg(o.release order by o.timestamp) filter (where o.release is not null))[1],
           (array_agg(o.release order by o.timestamp desc) filter (where o.release is not null))[1],
           coalesce(array_agg(distinct o.environment) filter (where o.environment is not null), '{}'),
           (array_agg(o.id order by o.timestamp desc))[1], left((array_agg(o.message order by o.timestamp desc))[1], 1000)
    from occurrences o where o.issue_id = ${from} and ${moved}`);
  await tx.execute(sql`update issue_fingerprints set issue_id = ${to} where project_id = ${project} and fingerprint = ${split.fingerprint}`);
  await tx.execute(sql`update occurrences o set issue_id = ${to} where o.issue_id = ${from} and ${moved}`);

  for (const [table, bucket, unit] of [
    ["issue_hourly_counts", "hour", sql`date_trunc('hour', o.timestamp at time zone 'UTC') at time zone 'UTC'`],
    ["issue_daily_counts", "day", sql`(o.timestamp at time zone 'UTC')::date`],
  ] as const) {
    const t = sql.raw(table);
    const b = sql.raw(bucket);
    await tx.execute(sql`
      insert into ${t} (organization_id, project_id, issue_id, environment, ${b}, count)
      select ${org}, ${project}, ${to}, o.environment_bucket, ${unit}, count(*) from occurrences o where o.issue_id = ${to} group by 4, 5`);
    await tx.execute(sql`
      update ${t} s set count = s.count - n.count from ${t} n
      where n.issue_id = ${to} and s.issue_id = ${from} and s.environment = n.environment and s.${b} = n.${b}`);
    await tx.execute(sql`delete from ${t} where issue_id = ${from} and count <= 0`);
  }
  await tx.execute(sql`
    insert into issue_tag_counts (organization_id, project_id, issue_id, key, value, count)
    select ${org}, ${project}, ${to}, key, value, count from (${tagsOfEvents(split.id, sql`true`)}) c`);
  // The source's tag counts are recounted from the events it keeps rather than reduced: counts of
  // events merged in while still in the tag buffer were dropped with their issue, so a subtraction
  // could take away more than the source holds.
  await tx.execute(sql`delete from issue_tag_counts where issue_id = ${from}`);
  await tx.execute(sql`
    insert into issue_tag_counts (organization_id, project_id, issue_id, key, value, count)
    select ${org}, ${project}, ${from}, key, value, count from (${tagsOfEvents(source.id, sql`o.organization_id = ${org} and o.project_id = ${project}`)}) c`);

  await tx.execute(sql`
    insert into issue_users (issue_id, user_key)
    select distinct ${to}, user_key from occurrences o where o.issue_id = ${to} and o.user_key is not null on conflict do nothing`);
  await tx.execute(sql`
    delete from issue_users u where u.issue_id = ${from}
      and exists (select 1 from issue_users n where n.issue_id = ${to} and n.user_key = u.user_key)
      and not exists (select 1 from occurrences o where o.issue_id = ${from} and o.user_key = u.user_key)`);
  await tx.execute(sql`update issues set user_count = (select count(*) from issue_users u where u.issue_id = ${to}) where id = ${to}`);
  await tx.execute(sql`
    insert into issue_activities (organization_id, project_id, issue_id, actor_user_id, kind, from_value, to_value) values
      (${org}, ${project}, ${from}, ${actor.userId}, 'unmerge', ${split.fingerprint.slice(0, 12)}, ${split.title}),
      (${org}, ${project}, ${to}, ${actor.userId}, 'unmerge', ${source.title}, ${split.title})`);
}

/**
 * The source's counters after its split: the moved events are taken off the count (not recounted,
 * so events dropped by retention still count); times, releases and latest event come from what stays.
 */
export async function settleSource(tx: Tx, actor: TriageActor, source: LockedIssue, splitIds: string[]) {
  const from = sql`${source.id}::uuid`;
  await tx.execute(sql`
    update issues t set
      event_count = greatest(t.event_count - (select coalesce(sum(event_count), 0) from issues s where s.id in (${sql.join(
        splitIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})), 0),
      user_count = (select count(*) from issue_users u where u.issue_id = t.id),
      first_seen = coalesce(a.first_seen, t.first_seen), last_seen = coalesce(a.last_seen, t.last_seen),
      last_occurrence_id = a.last_occurrence_id, last_message = coalesce(a.last_message, t.last_message),
      environments = coalesce(a.environments, t.environments)
    from (
      select min(o.timestamp) as first_seen, max(o.timestamp) as last_seen, (array_agg(o.id order by o.timestamp desc))[1] as last_occurrence_id,
             left((array_agg(o.message order by o.timestamp desc))[1], 1000) as last_message,
             array_agg(distinct o.environment) filter (where o.environment is not null) as environments
      from occurrences o where o.organization_id = ${actor.organizationId} and o.project_id = ${actor.projectId} and o.issue_id = ${from}
    ) a
    where t.id = ${from}`);
}
