import { sql } from "drizzle-orm";
import type { Logger } from "../../logger";
import { isReleaseVersion } from "../../releases/release-version";
import { rowsParam, type StatementRunner } from "./batch-commit";
import type { CommittedTags } from "./batch-commit";
import { QueuedRow, type BatchItem } from "./queued-row";
import { releaseHealthRows } from "./release-health-commit";

/** A release named by what a batch stored, for one project. */
interface NamedRelease {
  organization_id: string;
  project_id: string;
  version: string;
}

/** Versions remembered per process at most; past it the memory starts over (a few more upserts, nothing lost). */
const MAX_KNOWN = 50_000;
/**
 * How long a version stays remembered: a release deleted since (`sentry-cli releases delete`, here or
 * on another replica) is created again by the next event naming it within this time, not never.
 */
const KNOWN_FOR_MS = 10 * 60_000;

/**
 * Releases on first sight (Sentry's rule): an event or a session naming a release the organization
 * does not have creates it (`first_seen_in_event`) and links the project. Once per batch per distinct
 * version and project, and only for ones this process has not linked yet, so the steady state costs a
 * set lookup per stored item. Best effort: a failure is logged and retried with a later batch, never
 * a failure of the batch, whose items are already committed.
 */
export class FirstSeenReleases {
  private readonly known = new Set<string>();
  private knownSince = Date.now();

  constructor(private readonly logger: Logger) {}

  /** Creates and links the releases that the stored events and session items name, where this process has not already. */
  async record(db: StatementRunner, events: readonly CommittedTags[], stored: readonly { item: BatchItem }[]): Promise<void> {
    if (Date.now() - this.knownSince > KNOWN_FOR_MS) this.forget();
    const named = new Map<string, NamedRelease>();
    const note = (organizationId: string, projectId: string, version: string | undefined) => {
      if (version === undefined) return;
      const key = `${projectId} ${version}`;
      if (this.known.has(key) || named.has(key) || !isReleaseVersion(version)) return;
      named.set(key, { organization_id: organizationId, project_id: projectId, version });
    };
    for (const event of events) note(event.organizationId, event.projectId, event.tags.release);
    for (const { item } of stored)
      if (item instanceof QueuedRow && item.kind === releaseHealthRows) {
        const row = item.row as { organizationId: string; projectId: string; release: string };
        note(row.organizationId, row.projectId, row.release);
      }
    if (named.size === 0) return;
    try {
      await linkReleases(db, [...named.values()]);
    } catch (error) {
      this.logger.warn("releases on first sight not recorded; will retry", { releases: named.size, err: error });
      return;
    }
    if (this.known.size + named.size > MAX_KNOWN) this.forget();
    for (const key of named.keys()) this.known.add(key);
  }

  private forget() {
    this.known.clear();
    this.knownSince = Date.now();
  }
}

/**
 * One statement: the releases created where missing (an existing one, made by a tool or another
 * batch, is returned untouched by the no-op update, so its id is known without a second read) and
 * each linked to its project. Skips projects deleted meanwhile.
 */
export async function linkReleases(db: StatementRunner, named: NamedRelease[]) {
  const rows = [...named].sort((a, b) => (a.organization_id + a.version + a.project_id < b.organization_id + b.version + b.project_id ? -1 : 1));
  await db.executePrepared(
    sql`with
      input as (
        select * from json_to_recordset(${rowsParam(rows)}) as i(organization_id text, project_id uuid, version text)
        where exists (select 1 from projects p where p.id = i.project_id)
      ),
      created as (
        insert into releases as r (organization_id, version, first_seen_in_event)
        select distinct organization_id, version, true from input order by 1, 2
        on conflict (organization_id, version) do update set first_seen_in_event = r.first_seen_in_event
        returning id, organization_id, version
      )
    insert into release_projects (release_id, organization_id, project_id)
    select c.id, i.organization_id, i.project_id from input i join created c on c.organization_id = i.organization_id and c.version = i.version
    order by 1, 3
    on conflict do nothing`,
  );
}
