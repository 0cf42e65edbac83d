import { sql } from "drizzle-orm";
import type { Db } from "../src/server/db/client";
import { executeRows } from "../src/server/db/execute";
import { ensurePartitionsFor } from "../src/server/retention/week-partitions";
import { PARTITIONED_TABLES } from "../src/server/retention/partitioned-tables";
import { addDays, dayOf, daysBetween } from "../src/server/retention/utc-days";
import { seedProject } from "../test/helpers/seed";

export interface SeedShape {
  issues: number;
  occurrences: number;
  days: number;
}

/**
 * Bulk-seeds one project with `occurrences` events over `issues` issues and `days` days, in SQL
 * (not HTTP): issue popularity is skewed (a few hot issues, a long tail), environments are mostly
 * production, and the counters, rollups and tag counts are derived from the occurrences exactly
 * as ingest would have left them. Other organizations get as many issues and a tenth of the events
 * each, so the measured project is a minority of every table, as it would be in a shared database.
 */
export async function seedMillion(db: Db, shape: SeedShape & { otherTenants?: number }) {
  // Every seeded day's week gets its partition first, as the weeks ahead and the upgrade get theirs.
  const today = dayOf(new Date());
  await ensurePartitionsFor(db, PARTITIONED_TABLES[0], daysBetween(addDays(today, -shape.days - 1), today));
  const target = await seedProject(db, "bench-queries");
  await seedProjectRows(db, target.organizationId, target.projectId, shape.issues, shape.occurrences, shape.days);
  for (let tenant = 0; tenant < (shape.otherTenants ?? 4); tenant++) {
    const other = await seedProject(db, `bench-other-tenant-${tenant}`);
    await seedProjectRows(db, other.organizationId, other.projectId, shape.issues, Math.max(1, Math.round(shape.occurrences / 10)), shape.days);
  }
  // A database in use has been vacuumed by autovacuum: statistics and visibility maps are set, so
  // index-only scans skip the heap. Measuring right after a bulk load without them timed a state
  // production never stays in (bench/README.md, "bench:queries after issue 35's first part").
  await db.execute(sql`vacuum analyze`);
  return target;
}

async function seedProjectRows(db: Db, organizationId: string, projectId: string, issues: number, occurrences: number, days: number) {
  await db.execute(sql`
    insert into issues (organization_id, project_id, fingerprint, grouping_version, title, culprit, level, platform, status, severity,
                        first_seen, last_seen, event_count, user_count, environments)
    select ${organizationId}, ${projectId}::uuid, 'bench-' || i, 1,
           (array['TypeError', 'RangeError', 'OrderNotFound', 'KeyError', 'ValueError'])[1 + i % 5] || ': failure number ' || i || ' in module ' || (i % 97),
           'handler' || (i % 211) || ' (app/routes/r' || (i % 53) || '.js)',
           (array['error', 'error', 'warning', 'fatal', 'info'])[1 + i % 5], 'node',
           (array['OPEN', 'OPEN', 'OPEN', 'RESOLVED', 'IGNORED'])[1 + i % 5],
           (array['HIGH', 'MEDIUM', 'LOW', 'CRITICAL'])[1 + i % 4],
           now(), now(), 0, 0, '{}'
    from generate_series(1, ${issues}) as i`);
  // Skewed popularity: issue rank = issues * u^3 sends most events to the first issues.
  await db.execute(sql`
    with ranked as (
      select id, row_number() over (order by fingerprint) as rank from issues where project_id = ${projectId}::uuid
    ), picks as (
      select 1 + floor(${issues} * power(random(), 3))::int as rank,
             now() - (random() * ${days} * interval '1 day') as ts,
             (array['production', 'production', 'production', 'staging', 'development'])[1 + floor(random() * 5)::int] as env,
             n
      from generate_series(1, ${occurrences}) as n
    )
    insert into occurrences (organization_id, project_id, issue_id, event_id, timestamp, received_at, received_on, level, platform,
                             environment, environment_bucket, release, name, message, user_key, data)
    select ${organizationId}, ${projectId}::uuid, r.id, md5(${projectId} || p.n), p.ts, p.ts, (p.ts at time zone 'UTC')::date, 'error', 'node', p.env,
           case p.env when 'production' then 'PRODUCTION' when 'staging' then 'STAGING' else 'DEVELOPMENT' end,
           'shop@1.' || (p.n % 40), 'TypeError', 'Cannot read properties of undefined (reading ''id'') #' || (p.n % 1000),
           'id:user-' || (p.n % 5000),
           jsonb_build_object('message', 'seeded', 'exceptions', jsonb_build_array(jsonb_build_object('type', 'TypeError', 'value', 'seeded event ' || p.n,
             'frames', jsonb_build_array(jsonb_build_object('function', 'handler', 'filename', 'app.js', 'lineno', p.n % 500, 'inApp', true)))),
             'tags', jsonb_build_object('browser', (array['Chrome', 'Firefox', 'Safari'])[1 + p.n % 3]))::text
    from picks p join ranked r on r.rank = p.rank`);
  await db.execute(sql`
    update issues i set event_count = a.n, user_count = a.users, first_seen = a.first_seen, last_seen = a.last_seen,
                        environments = a.envs, last_occurrence_id = a.last_id, last_message = a.last_message, first_release = 'shop@1.0', last_release = 'shop@1.39'
    from (select issue_id, count(*) as n, count(distinct user_key) as users, min(timestamp) as first_seen, max(timestamp) as last_seen,
                 array_agg(distinct environment) as envs, (array_agg(id order by timestamp desc))[1] as last_id,
                 (array_agg(message order by timestamp desc))[1] as last_message
          from occurrences where project_id = ${projectId}::uuid group by issue_id) a
    where i.id = a.issue_id`);
  await db.execute(sql`
    insert into issue_daily_counts (organization_id, project_id, issue_id, environment, day, count)
    select ${organizationId}, ${projectId}::uuid, issue_id, environment_bucket, (timestamp at time zone 'UTC')::date, count(*)
    from occurrences where project_id = ${projectId}::uuid group by issue_id, environment_bucket, (timestamp at time zone 'UTC')::date`);
  await db.execute(sql`
    insert into project_daily_counts (organization_id, project_id, environment, day, count)
    select ${organizationId}, ${projectId}::uuid, environment_bucket, (timestamp at time zone 'UTC')::date, count(*)
    from occurrences where project_id = ${projectId}::uuid group by environment_bucket, (timestamp at time zone 'UTC')::date`);
  await db.execute(sql`
    insert into issue_hourly_counts (organization_id, project_id, issue_id, environment, hour, count)
    select ${organizationId}, ${projectId}::uuid, issue_id, environment_bucket, date_trunc('hour', timestamp at time zone 'UTC') at time zone 'UTC', count(*)
    from occurrences where project_id = ${projectId}::uuid group by 3, 4, 5`);
  // `data` is stored as text (ingest sends the document through unparsed), so read it as jsonb here.
  await db.execute(sql`
    insert into issue_tag_counts (organization_id, project_id, issue_id, key, value, count)
    select ${organizationId}, ${projectId}::uuid, issue_id, t.key, t.value, count(*)
    from occurrences cross join lateral jsonb_each_text(data::jsonb -> 'tags') as t(key, value)
    where project_id = ${projectId}::uuid group by 3, 4, 5`);
}

/**
 * The seed derives every counter from the occurrences it inserted; if a schema change breaks one
 * of its statements' meaning (not only its syntax), the figures would be for the wrong data.
 */
export async function checkSeed(db: Db, projectId: string, occurrences: number) {
  const [counts] = await executeRows<{ occurrences: number; counted: number; daily: number; tagged: number; issues: number }>(
    db,
    sql`select (select count(*)::int from occurrences where project_id = ${projectId}::uuid) as occurrences,
               (select coalesce(sum(event_count), 0)::int from issues where project_id = ${projectId}::uuid) as counted,
               (select coalesce(sum(count), 0)::int from issue_daily_counts where project_id = ${projectId}::uuid) as daily,
               (select coalesce(sum(count), 0)::int from issue_tag_counts where project_id = ${projectId}::uuid and key = 'browser') as tagged,
               (select count(*)::int from issues where project_id = ${projectId}::uuid and event_count > 0) as issues`,
  );
  const problems = [
    counts.occurrences !== occurrences && `${counts.occurrences} occurrences stored, ${occurrences} asked`,
    counts.counted !== counts.occurrences && `issue event counts sum to ${counts.counted}`,
    counts.daily !== counts.occurrences && `daily rollups sum to ${counts.daily}`,
    counts.tagged !== counts.occurrences && `browser tag counts sum to ${counts.tagged}`,
    counts.issues === 0 && "no issue received an occurrence",
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`seeded data is inconsistent: ${problems.join("; ")}`);
}

/** The seeded project's busiest issue: the realistic worst case for per-issue reads. */
export async function largestIssue(db: Db, projectId: string): Promise<{ id: string }> {
  const [largest] = await executeRows<{ id: string }>(db, sql`select id from issues where project_id = ${projectId}::uuid order by event_count desc limit 1`);
  if (!largest) throw new Error("the seeded project has no issue");
  return largest;
}
