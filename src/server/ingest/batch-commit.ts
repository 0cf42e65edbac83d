import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { toEnvironmentBucket } from "./environment-bucket";
import { dayOf, hourOf, severityForLevel, userKeyOf, type PendingOccurrence, type PendingOutcome } from "./pending-occurrence";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const key = (...parts: string[]) => parts.join("\u0000");
const byKey = <T>(map: Map<string, T>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);

/**
 * Every statement takes its rows as ONE json parameter expanded by json_to_recordset, so the SQL
 * text never changes with the batch size: prepared once, and the driver serialises one string
 * instead of thousands of parameters (the Node side was the bottleneck on two cores).
 */
const rowsParam = (rows: unknown[]): SQL => sql`${JSON.stringify(rows)}::json`;

/**
 * Commits many requests' events in ONE transaction: issues upserted once per fingerprint,
 * occurrences inserted in bulk (duplicates of an event id skipped), counters and rollups bumped
 * by what was really inserted. Callers answer 2xx only after this resolves.
 */
export async function commitBatch(db: Db, batch: PendingOccurrence[], outcomes: PendingOutcome[]): Promise<void> {
  await db.transaction(async (tx) => {
    const accepted = batch.length > 0 ? await commitOccurrences(tx, batch) : [];
    const all = [...outcomes, ...accepted];
    if (all.length > 0) await bumpOutcomes(tx, all);
  });
}

interface OccurrenceRow {
  organization_id: string;
  project_id: string;
  fingerprint: string;
  event_id: string;
  timestamp: string;
  received_at: string;
  level: string;
  platform: string | null;
  environment: string | null;
  environment_bucket: string;
  release: string | null;
  name: string | null;
  message: string | null;
  user_key: string | null;
  data: unknown;
}

async function commitOccurrences(tx: Tx, batch: PendingOccurrence[]): Promise<PendingOutcome[]> {
  // 1. One upsert row per (project, fingerprint), in key order so concurrent replicas lock alike.
  const firstByKey = new Map<string, PendingOccurrence>();
  for (const item of batch) {
    const k = key(item.projectId, item.grouping.fingerprint);
    const seen = firstByKey.get(k);
    if (!seen || item.occurrence.timestamp < seen.occurrence.timestamp) firstByKey.set(k, item);
  }
  const issueRows = byKey(firstByKey).map((item) => ({
    organization_id: item.organizationId,
    project_id: item.projectId,
    fingerprint: item.grouping.fingerprint,
    grouping_version: item.grouping.version,
    title: item.grouping.title,
    culprit: item.grouping.culprit,
    level: item.occurrence.level,
    platform: item.occurrence.platform,
    severity: severityForLevel(item.occurrence.level),
    first_seen: item.occurrence.timestamp.toISOString(),
    release: item.occurrence.release,
  }));
  // The no-op update makes RETURNING yield existing issues too; counters move in step 3.
  await executeRows(
    tx,
    sql`insert into issues (organization_id, project_id, fingerprint, grouping_version, title, culprit, level, platform, severity, first_seen, last_seen, first_release, last_release)
        select organization_id, project_id, fingerprint, grouping_version, title, culprit, level, platform, severity, first_seen, first_seen, release, release
        from json_to_recordset(${rowsParam(issueRows)}) as r(organization_id text, project_id uuid, fingerprint text, grouping_version smallint, title text, culprit text, level text, platform text, severity text, first_seen timestamptz, release text)
        on conflict (project_id, fingerprint) do nothing`,
  );

  // 2. Occurrences; a redelivered event id is stored once (also within one batch).
  const occurrenceRows = new Map<string, OccurrenceRow>();
  for (const item of batch) {
    const occ = item.occurrence;
    const thrown = occ.exceptions.at(-1);
    occurrenceRows.set(key(item.projectId, occ.eventId), {
      organization_id: item.organizationId,
      project_id: item.projectId,
      fingerprint: item.grouping.fingerprint,
      event_id: occ.eventId,
      timestamp: occ.timestamp.toISOString(),
      received_at: item.receivedAt.toISOString(),
      level: occ.level,
      platform: occ.platform,
      environment: occ.environment,
      environment_bucket: toEnvironmentBucket(occ.environment),
      release: occ.release,
      name: thrown?.type ?? null,
      message: occ.message ?? thrown?.value ?? null,
      user_key: userKeyOf(occ),
      data: { ...occ, grouping: { components: item.grouping.components, version: item.grouping.version } },
    });
  }
  const inserted = await executeRows<{ id: string; issue_id: string; event_id: string; project_id: string }>(
    tx,
    sql`insert into occurrences (organization_id, project_id, issue_id, event_id, timestamp, received_at, level, platform, environment, environment_bucket, release, name, message, user_key, data)
        select r.organization_id, r.project_id, i.id, r.event_id, r.timestamp, r.received_at, r.level, r.platform, r.environment, r.environment_bucket, r.release, r.name, r.message, r.user_key, r.data
        from json_to_recordset(${rowsParam(byKey(occurrenceRows))}) as r(organization_id text, project_id uuid, fingerprint text, event_id text, timestamp timestamptz, received_at timestamptz, level text, platform text, environment text, environment_bucket text, release text, name text, message text, user_key text, data jsonb)
        join issues i on i.project_id = r.project_id and i.fingerprint = r.fingerprint
        on conflict (project_id, event_id) do nothing
        returning id, issue_id, event_id, project_id`,
  );
  if (inserted.length === 0) return [];
  const stored = inserted.map((row) => ({ id: row.id, issueId: row.issue_id, row: occurrenceRows.get(key(row.project_id, row.event_id))! }));

  // 3. Distinct users (their count feeds the issue update), counters, rollups.
  const userRows = stored.filter(({ row }) => row.user_key).map(({ issueId, row }) => ({ issue_id: issueId, user_key: row.user_key }));
  const newUsers = new Map<string, number>();
  if (userRows.length > 0) {
    const added = await executeRows<{ issue_id: string }>(
      tx,
      sql`insert into issue_users (issue_id, user_key)
          select issue_id, user_key from json_to_recordset(${rowsParam(userRows)}) as r(issue_id uuid, user_key text)
          on conflict do nothing returning issue_id`,
    );
    for (const { issue_id } of added) newUsers.set(issue_id, (newUsers.get(issue_id) ?? 0) + 1);
  }
  await bumpIssues(tx, stored, newUsers);
  await bumpRollups(tx, stored);
  return stored.map(({ row }) => ({ organizationId: row.organization_id, projectId: row.project_id, outcome: "accepted", reason: "", category: "error", quantity: 1, at: new Date(row.received_at) }));
}

interface IssueDelta {
  id: string;
  n: number;
  new_users: number;
  first_seen: string;
  last_seen: string;
  first_release: string | null;
  last_release: string | null;
  envs: string[];
  last_occurrence_id: string;
}

async function bumpIssues(tx: Tx, stored: { id: string; issueId: string; row: OccurrenceRow }[], newUsers: Map<string, number>) {
  const deltas = new Map<string, IssueDelta>();
  for (const { id, issueId, row } of stored) {
    const delta = deltas.get(issueId);
    if (!delta) {
      deltas.set(issueId, { id: issueId, n: 1, new_users: newUsers.get(issueId) ?? 0, first_seen: row.timestamp, last_seen: row.timestamp, first_release: row.release, last_release: row.release, envs: row.environment ? [row.environment] : [], last_occurrence_id: id });
      continue;
    }
    delta.n += 1;
    // ISO-8601 UTC strings compare correctly as strings.
    if (row.timestamp < delta.first_seen) {
      delta.first_seen = row.timestamp;
      delta.first_release = row.release ?? delta.first_release;
    }
    if (row.timestamp >= delta.last_seen) {
      delta.last_seen = row.timestamp;
      delta.last_release = row.release ?? delta.last_release;
      delta.last_occurrence_id = id;
    }
    if (row.environment && !delta.envs.includes(row.environment)) delta.envs.push(row.environment);
  }
  // A RESOLVED issue that sees a new event reopens as a regression; IGNORED stays IGNORED.
  await executeRows(
    tx,
    sql`update issues as i set
          event_count = i.event_count + v.n,
          user_count = i.user_count + v.new_users,
          first_seen = least(i.first_seen, v.first_seen),
          last_seen = greatest(i.last_seen, v.last_seen),
          first_release = coalesce(i.first_release, v.first_release),
          last_release = case when v.last_seen >= i.last_seen then coalesce(v.last_release, i.last_release) else i.last_release end,
          last_occurrence_id = case when v.last_seen >= i.last_seen or i.last_occurrence_id is null then v.last_occurrence_id else i.last_occurrence_id end,
          environments = case when v.envs <@ i.environments then i.environments else array(select distinct e from unnest(i.environments || v.envs) as e order by e) end,
          status = case when i.status = 'RESOLVED' then 'OPEN' else i.status end,
          is_regression = i.is_regression or i.status = 'RESOLVED',
          resolved_at = case when i.status = 'RESOLVED' then null else i.resolved_at end
        from json_to_recordset(${rowsParam(byKey(deltas))}) as v(id uuid, n bigint, new_users int, first_seen timestamptz, last_seen timestamptz, first_release text, last_release text, envs text[], last_occurrence_id uuid)
        where i.id = v.id`,
  );
}

async function bumpRollups(tx: Tx, stored: { issueId: string; row: OccurrenceRow }[]) {
  const hourly = new Map<string, { organization_id: string; project_id: string; issue_id: string; environment: string; hour: string; count: number }>();
  const daily = new Map<string, { organization_id: string; project_id: string; issue_id: string; environment: string; day: string; count: number }>();
  for (const { issueId, row } of stored) {
    const at = new Date(row.timestamp);
    const base = { organization_id: row.organization_id, project_id: row.project_id, issue_id: issueId, environment: row.environment_bucket };
    const hour = hourOf(at).toISOString();
    const day = dayOf(at);
    const h = hourly.get(key(issueId, row.environment_bucket, hour));
    if (h) h.count += 1;
    else hourly.set(key(issueId, row.environment_bucket, hour), { ...base, hour, count: 1 });
    const d = daily.get(key(issueId, row.environment_bucket, day));
    if (d) d.count += 1;
    else daily.set(key(issueId, row.environment_bucket, day), { ...base, day, count: 1 });
  }
  await executeRows(
    tx,
    sql`insert into issue_hourly_counts (organization_id, project_id, issue_id, environment, hour, count)
        select * from json_to_recordset(${rowsParam(byKey(hourly))}) as r(organization_id text, project_id uuid, issue_id uuid, environment text, hour timestamptz, count bigint)
        on conflict (issue_id, environment, hour) do update set count = issue_hourly_counts.count + excluded.count`,
  );
  await executeRows(
    tx,
    sql`insert into issue_daily_counts (organization_id, project_id, issue_id, environment, day, count)
        select * from json_to_recordset(${rowsParam(byKey(daily))}) as r(organization_id text, project_id uuid, issue_id uuid, environment text, day date, count bigint)
        on conflict (issue_id, environment, day) do update set count = issue_daily_counts.count + excluded.count`,
  );
}

async function bumpOutcomes(tx: Tx, outcomes: PendingOutcome[]) {
  const merged = new Map<string, { organization_id: string; project_id: string; hour: string; outcome: string; reason: string; category: string; count: number }>();
  for (const outcome of outcomes) {
    const hour = hourOf(outcome.at).toISOString();
    const k = key(outcome.projectId, hour, outcome.outcome, outcome.reason, outcome.category);
    const existing = merged.get(k);
    if (existing) existing.count += outcome.quantity;
    else merged.set(k, { organization_id: outcome.organizationId, project_id: outcome.projectId, hour, outcome: outcome.outcome, reason: outcome.reason, category: outcome.category, count: outcome.quantity });
  }
  await executeRows(
    tx,
    sql`insert into ingest_outcomes (organization_id, project_id, hour, outcome, reason, category, count)
        select * from json_to_recordset(${rowsParam(byKey(merged))}) as r(organization_id text, project_id uuid, hour timestamptz, outcome text, reason text, category text, count bigint)
        on conflict (project_id, hour, outcome, reason, category) do update set count = ingest_outcomes.count + excluded.count`,
  );
}
