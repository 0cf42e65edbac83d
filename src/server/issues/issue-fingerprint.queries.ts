import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";

/** How many of an issue's newest events the per-fingerprint counts look at (they read occurrences). */
export const FINGERPRINT_COUNT_WINDOW = 10_000;

export interface FingerprintRow {
  fingerprint: string;
  grouping_version: number;
  components: string | null;
  exception_type: string | null;
  crash_frame: string | null;
  message_template: string | null;
  event_count: number | string;
}

/**
 * An issue's fingerprints with what they were made of, and how many of its newest events carry each.
 * Its own fingerprint is listed even before a row records it (issues made before grouping v2); events
 * stored before v2 carry no fingerprint and count as the issue's own.
 */
export function selectIssueFingerprints(db: Db, organizationId: string, projectId: string, issueId: string, ownFingerprint: string) {
  return executeRows<FingerprintRow>(
    db,
    sql`with own as (
          select f.fingerprint, f.grouping_version, f.components, f.exception_type, f.crash_frame, f.message_template from issue_fingerprints f
          where f.organization_id = ${organizationId} and f.project_id = ${projectId} and f.issue_id = ${issueId}::uuid
          union all
          select i.fingerprint, i.grouping_version, null, null, null, null from issues i
          where i.id = ${issueId}::uuid and i.organization_id = ${organizationId} and i.project_id = ${projectId}
            and not exists (select 1 from issue_fingerprints f where f.project_id = i.project_id and f.fingerprint = i.fingerprint)
        ),
        recent as (
          select coalesce(o.fingerprint, ${ownFingerprint}) as fingerprint from occurrences o
          where o.organization_id = ${organizationId} and o.project_id = ${projectId} and o.issue_id = ${issueId}::uuid
          order by o.received_at desc limit ${FINGERPRINT_COUNT_WINDOW}
        )
        select own.*, (select count(*) from recent r where r.fingerprint = own.fingerprint) as event_count
        from own order by own.grouping_version desc, own.fingerprint`,
  );
}

export interface SimilarCandidateRow {
  issue_id: string;
  exception_type: string | null;
  crash_frame: string | null;
  message_template: string | null;
}

/** The most candidates "similar issues" weighs (index scans on the project's fingerprint parts). */
export const SIMILAR_CANDIDATES = 500;

/**
 * Fingerprints of other issues of the project sharing a crashing frame or an exception type with
 * the given parts — or, for message issues (neither), other message fingerprints — from the stored
 * parts only, never by scanning events.
 */
export function selectSimilarCandidates(
  db: Db,
  organizationId: string,
  projectId: string,
  issueId: string,
  crashFrames: string[],
  exceptionTypes: string[],
  messagesOnly: boolean,
) {
  const anyOf = (values: string[]) =>
    values.length > 0
      ? sql`array[${sql.join(
          values.map((v) => sql`${v}`),
          sql`, `,
        )}]::text[]`
      : sql`'{}'::text[]`;
  return executeRows<SimilarCandidateRow>(
    db,
    sql`select issue_id, exception_type, crash_frame, message_template from issue_fingerprints
        where organization_id = ${organizationId} and project_id = ${projectId} and issue_id <> ${issueId}::uuid
          and (crash_frame = any(${anyOf(crashFrames)}) or exception_type = any(${anyOf(exceptionTypes)})
               ${messagesOnly ? sql`or (exception_type is null and crash_frame is null and message_template is not null)` : sql``})
        limit ${SIMILAR_CANDIDATES}`,
  );
}
