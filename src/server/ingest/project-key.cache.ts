import { and, eq, isNull, sql } from "drizzle-orm";
import { KEY_REVOCATION_SECONDS } from "../../shared/ingest-keys";
import type { Db } from "../db/client";
import type { ScrubSettings } from "./normalize/scrub-settings";
import { artifactBundles, issueFingerprints, projectKeys, projects } from "../db/schema/index";

export interface IngestProject {
  projectId: string;
  organizationId: string;
  projectNumber: number;
  keyId: string;
  /**
   * Whether the project has issues grouped by v1, whose events ingest must also look up by their v1
   * fingerprint. False for every project made since grouping v2, and it stays false: ingest only
   * makes v2 issues. Absent (callers outside the key cache) counts as true.
   */
  legacyGrouping?: boolean;
  /**
   * Whether the project has uploaded source maps: its JavaScript events are then symbolicated before
   * they are grouped (ingest.service.ts). Absent (callers outside the key cache) counts as false.
   */
  sourceMaps?: boolean;
  /** The project's data settings, added by IngestService.authorize (never cached here). */
  scrub?: ScrubSettings;
}

/**
 * What other services tell ingest's key cache, so this process acts at once: keys stopped being
 * valid, a project was deleted, a project's first source maps arrived (other replicas learn each
 * within the cache's TTL).
 */
export interface KeyRevocations {
  keysRevoked(publicKeys: string[]): void;
  projectDeleted(projectId: string): void;
  sourceMapsUploaded(projectIds: string[]): void;
}

interface Entry {
  value: IngestProject | null;
  expires: number;
}

/**
 * A valid key is trusted this long, so a key revoked (or a project deleted) through ANOTHER replica
 * stops working here within KEY_REVOCATION_SECONDS; one query per key per replica per period.
 */
const VALID_TTL_MS = KEY_REVOCATION_SECONDS * 1000;
/** Unknown keys are remembered longer: a key never becomes valid again, and new keys are random. */
const UNKNOWN_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Key → project lookups for the hot path. Unknown keys are cached too (negative cache), so a
 * client hammering with a bad key costs at most one query per key per minute. A key revoked or a
 * project deleted in this process is forgotten at once (KeyRevocations); elsewhere, within the TTL.
 */
export class ProjectKeyCache implements KeyRevocations {
  private entries = new Map<string, Entry>();
  private inflight = new Map<string, Promise<IngestProject | null>>();
  /** Bumped by every revocation: a lookup that was already running then must not cache its answer. */
  private generation = 0;
  /** Database lookups made so far (the negative-cache test reads it). */
  queries = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  async lookup(publicKey: string): Promise<IngestProject | null> {
    const cached = this.entries.get(publicKey);
    if (cached && cached.expires > this.now()) return cached.value;
    const running = this.inflight.get(publicKey);
    if (running) return running;
    const query = this.query(publicKey).finally(() => {
      if (this.inflight.get(publicKey) === query) this.inflight.delete(publicKey);
    });
    this.inflight.set(publicKey, query);
    return query;
  }

  keysRevoked(publicKeys: string[]) {
    this.generation += 1;
    for (const key of publicKeys) {
      this.entries.delete(key);
      this.inflight.delete(key);
    }
  }

  projectDeleted(projectId: string) {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (entry.value?.projectId === projectId) this.entries.delete(key);
    // Which running lookups belong to the project is unknown until they answer: start afresh.
    this.inflight.clear();
  }

  sourceMapsUploaded(projectIds: string[]) {
    // A lookup already running may have read the project without them: it must not be cached.
    this.generation += 1;
    const uploaded = new Set(projectIds);
    for (const entry of this.entries.values()) if (entry.value && uploaded.has(entry.value.projectId)) entry.value = { ...entry.value, sourceMaps: true };
  }

  private async query(publicKey: string) {
    this.queries += 1;
    const generation = this.generation;
    const [row] = await this.db
      .select({
        projectId: projects.id,
        organizationId: projects.organizationId,
        projectNumber: projects.number,
        keyId: projectKeys.id,
        legacyGrouping: sql<boolean>`exists (select 1 from ${issueFingerprints} where ${issueFingerprints.projectId} = ${projects.id} and ${issueFingerprints.groupingVersion} = 1)`,
        sourceMaps: sql<boolean>`exists (select 1 from ${artifactBundles} where ${artifactBundles.projectId} = ${projects.id})`,
      })
      .from(projectKeys)
      .innerJoin(projects, eq(projects.id, projectKeys.projectId))
      // A project being deleted refuses its keys from the moment it is marked (deletions/).
      .where(and(eq(projectKeys.publicKey, publicKey), isNull(projectKeys.revokedAt), isNull(projects.deletionId)))
      .limit(1);
    // Read before a revocation that happened meanwhile: good for this request, not for the next.
    if (generation !== this.generation) return row ?? null;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(publicKey, { value: row ?? null, expires: this.now() + (row ? VALID_TTL_MS : UNKNOWN_TTL_MS) });
    return row ?? null;
  }
}
