import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { ingestOutcomes, issueDailyCounts, issueHourlyCounts, issues, issueUsers, occurrences } from "../db/schema/index";
import { toEnvironmentBucket } from "./environment-bucket";
import { dayOf, hourOf, severityForLevel, userKeyOf, type PendingOccurrence, type PendingOutcome } from "./pending-occurrence";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const issueKey = (projectId: string, fingerprint: string) => `${projectId}\u0000${fingerprint}`;

/**
 * Commits many requests' events in ONE transaction: issues upserted once per fingerprint,
 * occurrences inserted in bulk (duplicates of an event id skipped), counters and rollups bumped
 * by what was really inserted. Callers answer 2xx only after this resolves.
 */
export async function commitBatch(db: Db, batch: PendingOccurrence[], outcomes: PendingOutcome[]): Promise<void> {
  await db.transaction(async (tx) => {
    if (batch.length > 0) await commitOccurrences(tx, batch);
    if (outcomes.length > 0) await bumpOutcomes(tx, outcomes);
  });
}

async function commitOccurrences(tx: Tx, batch: PendingOccurrence[]) {
  // 1. One upsert row per (project, fingerprint), in key order so concurrent replicas lock alike.
  const firstByKey = new Map<string, PendingOccurrence>();
  for (const item of batch) {
    const key = issueKey(item.projectId, item.grouping.fingerprint);
    const seen = firstByKey.get(key);
    if (!seen || item.occurrence.timestamp < seen.occurrence.timestamp) firstByKey.set(key, item);
  }
  const issueRows = [...firstByKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, item]) => ({
      organizationId: item.organizationId,
      projectId: item.projectId,
      fingerprint: item.grouping.fingerprint,
      groupingVersion: item.grouping.version,
      title: item.grouping.title,
      culprit: item.grouping.culprit,
      level: item.occurrence.level,
      platform: item.occurrence.platform,
      severity: severityForLevel(item.occurrence.level),
      firstSeen: item.occurrence.timestamp,
      lastSeen: item.occurrence.timestamp,
      firstRelease: item.occurrence.release,
      lastRelease: item.occurrence.release,
    }));
  const upserted = await tx
    .insert(issues)
    .values(issueRows)
    // A no-op update so RETURNING yields the id of an existing issue too; counters move in step 3.
    .onConflictDoUpdate({ target: [issues.projectId, issues.fingerprint], set: { fingerprint: sql`excluded.fingerprint` } })
    .returning({ id: issues.id, projectId: issues.projectId, fingerprint: issues.fingerprint });
  const issueIdByKey = new Map(upserted.map((row) => [issueKey(row.projectId, row.fingerprint), row.id]));

  // 2. Occurrences; a redelivered event id is stored once.
  const occurrenceRows = batch.map((item) => {
    const occ = item.occurrence;
    return {
      organizationId: item.organizationId,
      projectId: item.projectId,
      issueId: issueIdByKey.get(issueKey(item.projectId, item.grouping.fingerprint))!,
      eventId: occ.eventId,
      timestamp: occ.timestamp,
      receivedAt: item.receivedAt,
      level: occ.level,
      platform: occ.platform,
      environment: occ.environment,
      environmentBucket: toEnvironmentBucket(occ.environment),
      release: occ.release,
      name: occ.exceptions.at(-1)?.type ?? null,
      message: occ.message ?? occ.exceptions.at(-1)?.value ?? null,
      userKey: userKeyOf(occ),
      data: { ...occ, grouping: { components: item.grouping.components, version: item.grouping.version } },
    };
  });
  const inserted = await tx
    .insert(occurrences)
    .values(occurrenceRows)
    .onConflictDoNothing({ target: [occurrences.projectId, occurrences.eventId] })
    .returning({ id: occurrences.id, projectId: occurrences.projectId, eventId: occurrences.eventId });
  if (inserted.length === 0) return;

  const insertedIds = new Map(inserted.map((row) => [`${row.projectId}\u0000${row.eventId}`, row.id]));
  const stored = occurrenceRows
    .map((row) => ({ row, id: insertedIds.get(`${row.projectId}\u0000${row.eventId}`) }))
    .filter((entry): entry is { row: (typeof occurrenceRows)[number]; id: string } => Boolean(entry.id));
  // Within one batch the same event id may appear twice; only the inserted copy counts.
  const counted = new Set<string>();
  const unique = stored.filter(({ id }) => (counted.has(id) ? false : (counted.add(id), true)));

  // 3. Distinct users first (their count feeds the issue update).
  const userRows = unique.filter(({ row }) => row.userKey).map(({ row }) => ({ issueId: row.issueId, userKey: row.userKey! }));
  const newUsers = new Map<string, number>();
  if (userRows.length > 0) {
    const added = await tx.insert(issueUsers).values(userRows).onConflictDoNothing().returning({ issueId: issueUsers.issueId });
    for (const { issueId } of added) newUsers.set(issueId, (newUsers.get(issueId) ?? 0) + 1);
  }

  await bumpIssues(tx, unique, newUsers);
  await bumpRollups(tx, unique.map(({ row }) => row));
  await bumpOutcomes(
    tx,
    unique.map(({ row }) => ({ organizationId: row.organizationId, projectId: row.projectId, outcome: "accepted", reason: "", category: "error", quantity: 1, at: row.receivedAt })),
  );
}

interface IssueDelta {
  count: number;
  firstSeen: Date;
  lastSeen: Date;
  firstRelease: string | null;
  lastRelease: string | null;
  environments: Set<string>;
  lastOccurrenceId: string;
}

async function bumpIssues(tx: Tx, stored: { row: { issueId: string; timestamp: Date; release: string | null; environment: string | null }; id: string }[], newUsers: Map<string, number>) {
  const deltas = new Map<string, IssueDelta>();
  for (const { row, id } of stored) {
    const delta = deltas.get(row.issueId);
    if (!delta) {
      deltas.set(row.issueId, {
        count: 1,
        firstSeen: row.timestamp,
        lastSeen: row.timestamp,
        firstRelease: row.release,
        lastRelease: row.release,
        environments: new Set(row.environment ? [row.environment] : []),
        lastOccurrenceId: id,
      });
      continue;
    }
    delta.count += 1;
    if (row.timestamp < delta.firstSeen) {
      delta.firstSeen = row.timestamp;
      delta.firstRelease = row.release ?? delta.firstRelease;
    }
    if (row.timestamp >= delta.lastSeen) {
      delta.lastSeen = row.timestamp;
      delta.lastRelease = row.release ?? delta.lastRelease;
      delta.lastOccurrenceId = id;
    }
    if (row.environment) delta.environments.add(row.environment);
  }
  const values = [...deltas.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([issueId, d]) =>
        sql`(${issueId}::uuid, ${d.count}::bigint, ${newUsers.get(issueId) ?? 0}::int, ${d.firstSeen.toISOString()}::timestamptz, ${d.lastSeen.toISOString()}::timestamptz, ${d.firstRelease}::text, ${d.lastRelease}::text, ${JSON.stringify([...d.environments])}::jsonb, ${d.lastOccurrenceId}::uuid)`,
    );
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
          environments = array(select distinct e from unnest(i.environments || array(select jsonb_array_elements_text(v.envs))) as e order by e),
          status = case when i.status = 'RESOLVED' then 'OPEN' else i.status end,
          is_regression = i.is_regression or i.status = 'RESOLVED',
          resolved_at = case when i.status = 'RESOLVED' then null else i.resolved_at end
        from (values ${sql.join(values, sql`, `)}) as v(id, n, new_users, first_seen, last_seen, first_release, last_release, envs, last_occurrence_id)
        where i.id = v.id`,
  );
}

async function bumpRollups(tx: Tx, rows: { organizationId: string; projectId: string; issueId: string; environmentBucket: string; timestamp: Date }[]) {
  const hourly = new Map<string, typeof issueHourlyCounts.$inferInsert>();
  const daily = new Map<string, typeof issueDailyCounts.$inferInsert>();
  for (const row of rows) {
    const hour = hourOf(row.timestamp);
    const day = dayOf(row.timestamp);
    const base = { organizationId: row.organizationId, projectId: row.projectId, issueId: row.issueId, environment: row.environmentBucket };
    const hourKey = `${row.issueId}|${row.environmentBucket}|${hour.getTime()}`;
    const dayKey = `${row.issueId}|${row.environmentBucket}|${day}`;
    const h = hourly.get(hourKey);
    if (h) h.count += 1;
    else hourly.set(hourKey, { ...base, hour, count: 1 });
    const d = daily.get(dayKey);
    if (d) d.count += 1;
    else daily.set(dayKey, { ...base, day, count: 1 });
  }
  const byKey = <T>(map: Map<string, T>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
  await tx
    .insert(issueHourlyCounts)
    .values(byKey(hourly))
    .onConflictDoUpdate({ target: [issueHourlyCounts.issueId, issueHourlyCounts.environment, issueHourlyCounts.hour], set: { count: sql`${issueHourlyCounts.count} + excluded.count` } });
  await tx
    .insert(issueDailyCounts)
    .values(byKey(daily))
    .onConflictDoUpdate({ target: [issueDailyCounts.issueId, issueDailyCounts.environment, issueDailyCounts.day], set: { count: sql`${issueDailyCounts.count} + excluded.count` } });
}

async function bumpOutcomes(tx: Tx, outcomes: PendingOutcome[]) {
  const merged = new Map<string, typeof ingestOutcomes.$inferInsert>();
  for (const outcome of outcomes) {
    const hour = hourOf(outcome.at);
    const key = `${outcome.projectId}|${hour.getTime()}|${outcome.outcome}|${outcome.reason}|${outcome.category}`;
    const existing = merged.get(key);
    if (existing) existing.count += outcome.quantity;
    else merged.set(key, { organizationId: outcome.organizationId, projectId: outcome.projectId, hour, outcome: outcome.outcome, reason: outcome.reason, category: outcome.category, count: outcome.quantity });
  }
  const rows = [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
  await tx
    .insert(ingestOutcomes)
    .values(rows)
    .onConflictDoUpdate({
      target: [ingestOutcomes.projectId, ingestOutcomes.hour, ingestOutcomes.outcome, ingestOutcomes.reason, ingestOutcomes.category],
      set: { count: sql`${ingestOutcomes.count} + excluded.count` },
    });
}
