import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { afterNewEventSql, alertPendingMarkSql, regressionActivitiesSql, regressionMarkSql } from "../../issues/issue-state";
import { storableText } from "../normalize/storable-text";
import { storableJson } from "./json-escapes";
import { oneByteJson } from "./one-byte-text";
import { hourOf, type PendingOutcome } from "./pending-occurrence";
import type { PreparedOccurrence } from "./prepared-occurrence";
import { insertQueuedRows, splitBatch, type BatchItem } from "./queued-row";
import type { TagCountRow } from "./tag-count-buffer";
import type { MinuteCountRow } from "./minute-count-buffer";

/**
 * Rows travel as ONE json parameter expanded by json_to_recordset: the SQL text never changes with
 * the batch size (prepared once) and the driver serialises one string, not thousands of values.
 */
export const rowsParam = (rows: unknown[]): SQL => sql`${oneByteJson(storableJson(JSON.stringify(rows)))}::json`;

/**
 * The stored event documents travel beside the rows, joined into one text split by PostgreSQL:
 * inside the rows' JSON they would be lexed twice (once by json_to_recordset, once as a value).
 * JSON.stringify escapes every control character, so U+001E can never occur inside a document.
 */
const DOCUMENT_SEPARATOR = "\u001e";
/**
 * The documents as two texts with one separated entry per slot: one-byte documents in the first,
 * the few holding characters beyond Latin-1 in the second (one-byte-text.ts), each entry empty where
 * the other text has the document. PostgreSQL zips the two back by position and stores each
 * document as it was sent; the usual batch has no wide document and sends an empty second text.
 */
function documentsParams(documents: PreparedOccurrence[]): [SQL, SQL] {
  const narrow = documents.map((d) => (d.documentIsTwoByte ? "" : d.document)).join(DOCUMENT_SEPARATOR);
  const wide = documents.some((d) => d.documentIsTwoByte) ? documents.map((d) => (d.documentIsTwoByte ? d.document : "")).join(DOCUMENT_SEPARATOR) : "";
  return [sql`${narrow}::text`, sql`${wide}::text`];
}

/**
 * Commits many requests' events durably. Callers answer 2xx only after this resolves.
 *
 * Everything happens in ONE statement (so one round trip and one commit): occurrences inserted
 * with duplicates of an event id skipped; then, from what was really inserted, the distinct users,
 * the issue upserts (one per fingerprint, counters bumped atomically, RESOLVED → OPEN as a
 * regression) and the hourly/daily rollups per issue and per project. A statement is atomic, so a crash leaves all or none.
 * Hot issues are row-locked only for the end of this statement and its commit, which is what lets
 * several batches commit concurrently. Rows are written in key order so batches lock alike.
 *
 * Tag counts and per-minute counts are not written here: the result says which events were stored,
 * and the caller sums their tags and minutes in buffers that `addTagCounts` and `addMinuteCounts`
 * write about once a second.
 */
export type StatementRunner = Pick<Database, "executePrepared">;

/** The tags of each event this batch really stored (duplicates of a stored event id excluded). */
export interface CommittedTags {
  organizationId: string;
  projectId: string;
  issueId: string;
  tags: Record<string, string>;
  /** The minute it was received in (minute-count-buffer.ts). */
  minute: string;
}

/** An issue this batch created or reopened (a regression): what alerts are evaluated on. */
export interface IssueFact {
  organizationId: string;
  projectId: string;
  issueId: string;
  kind: "new" | "regression";
  /** The issue's alert mark this statement set (issues.alert_pending_since): the evaluation clears that one only. */
  markedAt: string;
}

/** What one batch statement did. */
export interface CommittedEvents {
  /** Issues the batch created or regressed (few: most batches add to known issues). */
  issueFacts: IssueFact[];
  /** The tags of each event stored (not duplicates, not orphans), for the tag counts. */
  stored: CommittedTags[];
  /**
   * Positions in the batch of events whose project no longer exists (deleted since its key was
   * cached, here or on another replica): not stored, and not a failure of their neighbours.
   */
  orphans: number[];
}

/** A batch and its outcome counters; the writer uses commitItems and addOutcomes apart. */
export async function commitBatch(db: StatementRunner, batch: BatchItem[], outcomes: PendingOutcome[]): Promise<CommittedTags[]> {
  const committed = batch.length > 0 ? (await commitItems(db, batch)).stored : [];
  if (outcomes.length > 0) await addOutcomes(db, outcomes);
  return committed;
}

/**
 * A batch of the writer's queue: its events in one statement, then other domains' rows (queued-row.ts).
 * Those go last: they have no event id to deduplicate on, so they must not be written when the events'
 * statement fails and the whole part is sent again. `orphans` index `batch`.
 */
export async function commitItems(db: StatementRunner, batch: BatchItem[]): Promise<CommittedEvents> {
  const [occurrences, rows] = splitBatch(batch);
  const committed = occurrences.length > 0 ? await commitEvents(db, occurrences) : { stored: [], orphans: [], issueFacts: [] };
  if (rows.length > 0) await insertQueuedRows(db, rows);
  if (rows.length === 0 || committed.orphans.length === 0) return committed;
  return { ...committed, orphans: committed.orphans.map((i) => batch.indexOf(occurrences[i])) };
}

export async function commitEvents(db: StatementRunner, batch: PreparedOccurrence[]): Promise<CommittedEvents> {
  const issues = new Map<string, Record<string, unknown>>();
  // One row per event id (a batch holding the same event twice stores it once, the later copy
  // in the earlier slot). Row i's document is element i + 1 of the separated text, counted as
  // WITH ORDINALITY counts.
  const slotOfEvent = new Map<string, number>();
  const slotOfItem: number[] = [];
  const rows: string[] = [];
  const documents: PreparedOccurrence[] = [];
  const tags: CommittedTags[] = [];
  const batchToken = crypto.randomUUID();
  for (const event of batch) {
    if (!issues.has(event.issueId)) issues.set(event.issueId, event.issue);
    const slot = slotOfEvent.get(event.eventKey) ?? rows.length;
    slotOfEvent.set(event.eventKey, slot);
    slotOfItem.push(slot);
    rows[slot] = `{"document_index":${slot + 1},${event.rowJson.slice(1)}`;
    tags[slot] = { organizationId: event.organizationId, projectId: event.projectId, issueId: event.issueId, tags: event.tags, minute: event.minute };
    documents[slot] = event;
  }

  const [narrowDocuments, wideDocuments] = documentsParams(documents);
  const [result] = await db.executePrepared<{
    duplicates: number[] | null;
    orphans: number[] | null;
    redirected: [number, string][] | null;
    alerting: [string, string, string, boolean, string][] | null;
  }>(
    sql`with
      r as (
        select * from json_to_recordset(${`[${rows.join(",")}]`}::json) as r(
          organization_id text, project_id uuid, issue_id uuid, event_id text, timestamp timestamptz, received_at timestamptz,
          level text, platform text, environment text, environment_bucket text, release text, name text, message text,
          user_key text, fingerprint text, legacy_fingerprint text, scrubbed bigint, document_index bigint)
      ),
      -- Where each event goes (grouping/ingest-grouping.ts): the issue its v2 fingerprint was linked,
      -- merged or split to, else the issue of its v1 fingerprint, else the new issue its v2
      -- fingerprint names. Every issue's own fingerprint has its issue_fingerprints row (created with
      -- the issue; migration 0008 added those of older issues), so primary-key probes suffice: one per
      -- event, and the v1 one only for a fingerprint not known yet (coalesce stops at the first
      -- value; legacy_fingerprint is null in projects without v1 issues).
      resolved as (
        select r.*,
               coalesce((select f.issue_id from issue_fingerprints f where f.project_id = r.project_id and f.fingerprint = r.fingerprint),
                        (select f.issue_id from issue_fingerprints f where f.project_id = r.project_id and f.fingerprint = r.legacy_fingerprint),
                        r.issue_id) as target_issue_id
        from r
      ),
      documents as (
        select coalesce(nullif(d.narrow, ''), d.wide) as data, d.document_index
        from unnest(string_to_array(${narrowDocuments}, ${DOCUMENT_SEPARATOR}), string_to_array(${wideDocuments}, ${DOCUMENT_SEPARATOR}))
             with ordinality as d(narrow, wide, document_index)
      ),
      meta as (
        select * from json_to_recordset(${rowsParam([...issues.values()])}) as m(
          id uuid, organization_id text, project_id uuid, fingerprint text, grouping_version smallint, title text,
          culprit text, level text, platform text, severity text, components text, exception_type text, crash_frame text,
          message_template text)
      ),
      occ as (
        insert into occurrences (organization_id, project_id, issue_id, event_id, timestamp, received_at, received_on, level, platform,
                                 environment, environment_bucket, release, name, message, user_key, fingerprint, data)
        select organization_id, project_id, target_issue_id, event_id, timestamp, received_at, (received_at at time zone 'UTC')::date,
               level, platform, environment, environment_bucket, release, name, message, user_key, fingerprint, d.data
        from resolved r join documents d on d.document_index = r.document_index
        -- A project deleted since its key was cached: its rows are left out (the foreign key would
        -- fail the whole statement) and reported as orphans.
        where exists (select 1 from projects p where p.id = r.project_id)
          -- The event id's unique index holds within a day (the partition key is in it): a retry
          -- of an event stored just before midnight is found in the day before, one probe into
          -- one partition.
          and not exists (select 1 from occurrences o where o.project_id = r.project_id and o.event_id = r.event_id
                                                        and o.received_on = (r.received_at at time zone 'UTC')::date - 1)
        order by project_id, event_id
        on conflict (project_id, event_id, received_on) do nothing
        returning id, organization_id, project_id, issue_id, event_id, timestamp, received_at, environment, environment_bucket, release, user_key, message, fingerprint
      ),
      -- The row each issue is created with, should it be new: the meta of a fingerprint that went to it.
      issue_meta as (
        select distinct on (o.issue_id) o.issue_id as id, m.organization_id, m.project_id, m.fingerprint, m.grouping_version, m.title,
               m.culprit, m.level, m.platform, m.severity
        from occ o join meta m on m.project_id = o.project_id and m.fingerprint = o.fingerprint
        order by o.issue_id, o.timestamp
      ),
      -- A fingerprint seen for the first time is recorded with the issue it went to (and what it was made of).
      new_fingerprints as (
        insert into issue_fingerprints (organization_id, project_id, fingerprint, issue_id, grouping_version, components, exception_type,
                                        crash_frame, message_template)
        select n.* from (
          select distinct on (o.project_id, o.fingerprint) o.organization_id, o.project_id, o.fingerprint, o.issue_id, m.grouping_version,
                 m.components, m.exception_type, m.crash_frame, m.message_template
          from occ o join meta m on m.project_id = o.project_id and m.fingerprint = o.fingerprint
          order by o.project_id, o.fingerprint
        ) n
        -- One probe per distinct fingerprint of the batch, not per event.
        where not exists (select 1 from issue_fingerprints f where f.project_id = n.project_id and f.fingerprint = n.fingerprint)
        on conflict (project_id, fingerprint) do nothing
      ),
      new_users as (
        insert into issue_users (issue_id, user_key)
        select distinct issue_id, user_key from occ where user_key is not null order by issue_id, user_key
        on conflict do nothing
        returning issue_id
      ),
      agg as (
        select o.issue_id,
               count(*) as n,
               min(o.timestamp) as first_seen,
               max(o.timestamp) as last_seen,
               (array_agg(o.release order by o.timestamp) filter (where o.release is not null))[1] as first_release,
               (array_agg(o.release order by o.timestamp desc) filter (where o.release is not null))[1] as last_release,
               (array_agg(o.id order by o.timestamp desc))[1] as last_occurrence_id,
               left((array_agg(o.message order by o.timestamp desc))[1], ${MAX_SEARCHABLE_MESSAGE}) as last_message,
               coalesce(array_agg(distinct o.environment) filter (where o.environment is not null), '{}') as environments
        from occ o group by o.issue_id
      ),
      upserted as (
        insert into issues (id, organization_id, project_id, fingerprint, grouping_version, title, culprit, level, platform,
                            severity, first_seen, last_seen, event_count, user_count, first_release, last_release,
                            environments, last_occurrence_id, last_message, alert_pending_since)
        select m.id, m.organization_id, m.project_id, m.fingerprint, m.grouping_version, m.title, m.culprit, m.level, m.platform,
               m.severity, a.first_seen, a.last_seen, a.n, (select count(*) from new_users u where u.issue_id = m.id),
               a.first_release, a.last_release, a.environments, a.last_occurrence_id, a.last_message, now()
        from issue_meta m join agg a on a.issue_id = m.id
        order by m.id
        -- An upsert settles a race on its arbiter only; the (project_id, fingerprint) unique index is
        -- deferrable (migration 0010) so that a batch losing a race on an issue retries as an update.
        on conflict (id) do update set
          event_count = issues.event_count + excluded.event_count,
          user_count = issues.user_count + excluded.user_count,
          first_seen = least(issues.first_seen, excluded.first_seen),
          last_seen = greatest(issues.last_seen, excluded.last_seen),
          first_release = coalesce(issues.first_release, excluded.first_release),
          last_release = case when excluded.last_seen >= issues.last_seen then coalesce(excluded.last_release, issues.last_release) else issues.last_release end,
          last_occurrence_id = case when excluded.last_seen >= issues.last_seen or issues.last_occurrence_id is null then excluded.last_occurrence_id else issues.last_occurrence_id end,
          last_message = case when excluded.last_seen >= issues.last_seen then coalesce(excluded.last_message, issues.last_message) else issues.last_message end,
          environments = case when excluded.environments <@ issues.environments then issues.environments
                              else array(select distinct e from unnest(issues.environments || excluded.environments) as e order by e) end,
          -- The regression rule (RESOLVED reopens as a regression unless the events' releases predate the
          -- release it was resolved in; IGNORED stays IGNORED): issues/issue-state.ts.
          ${afterNewEventSql},
          ${regressionMarkSql(batchToken)},
          -- Created or reopened: alerts have it to evaluate (alerts/alert-facts-sweep.ts recovers one never handed over).
          ${alertPendingMarkSql}
        -- xmax is 0 on a row this insert created, the updating transaction's id on one it updated.
        returning id, organization_id, project_id, xmax = 0 as created, last_regression_batch = ${batchToken}::uuid as regressed, alert_pending_since
      ),
      -- Each issue this statement reopened gets its activity row, in the same atomic statement.
      regressions as (
        insert into issue_activities (organization_id, project_id, issue_id, kind, from_value, to_value)
        ${regressionActivitiesSql("(select organization_id, project_id, id from upserted where regressed)")}
      ),
      hourly as (
        insert into issue_hourly_counts (organization_id, project_id, issue_id, environment, hour, count)
        select organization_id, project_id, issue_id, environment_bucket, date_trunc('hour', timestamp at time zone 'UTC') at time zone 'UTC', count(*)
        from occ group by 1, 2, 3, 4, 5 order by 3, 4, 5
        on conflict (issue_id, environment, hour) do update set count = issue_hourly_counts.count + excluded.count
      ),
      daily as (
        insert into issue_daily_counts (organization_id, project_id, issue_id, environment, day, count)
        select organization_id, project_id, issue_id, environment_bucket, (timestamp at time zone 'UTC')::date, count(*)
        from occ group by 1, 2, 3, 4, 5 order by 3, 4, 5
        on conflict (issue_id, environment, day) do update set count = issue_daily_counts.count + excluded.count
      ),
      project_daily as (
        insert into project_daily_counts (organization_id, project_id, environment, day, count)
        select organization_id, project_id, environment_bucket, (timestamp at time zone 'UTC')::date, count(*)
        from occ group by 1, 2, 3, 4 order by 2, 3, 4
        on conflict (project_id, environment, day) do update set count = project_daily_counts.count + excluded.count
      ),
      -- Values the data settings scrubbed, per project and UTC day, of the events really stored ("n values scrubbed today").
      scrubbed as (
        insert into scrub_daily_counts (project_id, day, count)
        select r.project_id, (r.received_at at time zone 'UTC')::date, sum(r.scrubbed)
        from r join occ o on o.project_id = r.project_id and o.event_id = r.event_id
        where r.scrubbed > 0
        group by 1, 2 order by 1, 2
        on conflict (project_id, day) do update set count = scrub_daily_counts.count + excluded.count
      ),
      accepted as (
        insert into ingest_outcomes (organization_id, project_id, hour, outcome, reason, category, count)
        select organization_id, project_id, date_trunc('hour', received_at at time zone 'UTC') at time zone 'UTC', 'accepted', '', 'error', count(*)
        from occ group by 1, 2, 3 order by 2, 3
        on conflict (project_id, hour, outcome, reason, category) do update set count = ingest_outcomes.count + excluded.count
      )
    -- Data-modifying CTEs run to completion whether or not anything reads them (PostgreSQL's rule),
    -- so the rollups return nothing and the result carries only what the caller uses.
    select (select json_agg(json_build_array(document_index, target_issue_id)) from resolved where target_issue_id <> issue_id) as redirected,
           -- Alerts: [issue, organization, project, created, its alert mark] of each issue created or regressed.
           (select json_agg(json_build_array(id, organization_id, project_id, created, alert_pending_since)) from upserted where created or regressed) as alerting,
           (select array_agg(r.document_index) from r
             where not exists (select 1 from occ where occ.project_id = r.project_id and occ.event_id = r.event_id)) as duplicates,
           (select array_agg(r.document_index) from r where not exists (select 1 from projects p where p.id = r.project_id)) as orphans`,
  );
  // Row i of the batch is document i + 1; a duplicate or an orphan stored nothing, so its tags count nothing.
  for (const index of result?.duplicates ?? []) delete tags[Number(index) - 1];
  // Events that went to an existing issue other than the one their fingerprint names count there.
  for (const [index, issueId] of result?.redirected ?? []) if (tags[Number(index) - 1]) tags[Number(index) - 1].issueId = issueId;
  const orphanSlots = new Set((result?.orphans ?? []).map((index) => Number(index) - 1));
  const orphans = orphanSlots.size === 0 ? [] : slotOfItem.flatMap((slot, position) => (orphanSlots.has(slot) ? [position] : []));
  const issueFacts: IssueFact[] = (result?.alerting ?? []).map(([issueId, organizationId, projectId, created, markedAt]) => ({
    issueId,
    organizationId,
    projectId,
    kind: created ? "new" : "regression",
    markedAt,
  }));
  return { stored: tags.filter(Boolean), orphans, issueFacts };
}

/** Adds summed per-minute counts to issue_minute_counts, skipping issues deleted since their events were stored. */
export async function addMinuteCounts(db: StatementRunner, rows: MinuteCountRow[]) {
  await db.executePrepared(
    sql`insert into issue_minute_counts (organization_id, project_id, issue_id, minute, count)
        select r.organization_id, r.project_id, r.issue_id, r.minute, r.count
        from json_to_recordset(${rowsParam(rows)}) as r(organization_id text, project_id uuid, issue_id uuid, minute timestamptz, count bigint)
        join issues i on i.id = r.issue_id
        order by r.issue_id, r.minute
        on conflict (issue_id, minute) do update set count = issue_minute_counts.count + excluded.count`,
  );
}

/** Adds summed tag counts to issue_tag_counts, skipping issues deleted since their events were stored. */
export async function addTagCounts(db: StatementRunner, rows: TagCountRow[]) {
  await db.executePrepared(
    sql`insert into issue_tag_counts (organization_id, project_id, issue_id, key, value, count)
        select r.organization_id, r.project_id, r.issue_id, r.key, r.value, r.count
        from json_to_recordset(${rowsParam(rows)}) as r(organization_id text, project_id uuid, issue_id uuid, key text, value text, count bigint)
        join issues i on i.id = r.issue_id
        order by r.issue_id, r.key, r.value
        on conflict (issue_id, key, value) do update set count = issue_tag_counts.count + excluded.count`,
  );
}

/** Enough of a message to search; the whole text stays on the occurrence. */
const MAX_SEARCHABLE_MESSAGE = 1000;

/**
 * Outcome counters that did not come from stored events (client reports, rate limiting, events
 * refused as invalid). Counters of a project deleted meanwhile are skipped, not a failure.
 */
export async function addOutcomes(db: StatementRunner, outcomes: PendingOutcome[]) {
  const merged = new Map<
    string,
    { organization_id: string; project_id: string; hour: string; outcome: string; reason: string; category: string; count: number }
  >();
  for (const outcome of outcomes) {
    const hour = hourOf(outcome.at).toISOString();
    // Client reports carry the SDK's text: made storable before merging, or two spellings of one
    // stored row would hit it twice in one insert and fail every tenant's counters with it.
    const reason = storableText(outcome.reason);
    const category = storableText(outcome.category);
    const key = [outcome.projectId, hour, outcome.outcome, reason, category].join("\u0000");
    const existing = merged.get(key);
    if (existing) existing.count += outcome.quantity;
    else
      merged.set(key, {
        organization_id: outcome.organizationId,
        project_id: outcome.projectId,
        hour,
        outcome: outcome.outcome,
        reason,
        category,
        count: outcome.quantity,
      });
  }
  const rows = [...merged.values()].sort((a, b) =>
    a.project_id + a.hour + a.outcome + a.reason + a.category < b.project_id + b.hour + b.outcome + b.reason + b.category ? -1 : 1,
  );
  await db.executePrepared(
    sql`insert into ingest_outcomes (organization_id, project_id, hour, outcome, reason, category, count)
        select * from json_to_recordset(${rowsParam(rows)}) as r(organization_id text, project_id uuid, hour timestamptz, outcome text, reason text, category text, count bigint)
        where exists (select 1 from projects p where p.id = r.project_id)
        on conflict (project_id, hour, outcome, reason, category) do update set count = ingest_outcomes.count + excluded.count`,
  );
}
