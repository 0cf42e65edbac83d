import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { projectKeys, projects } from "../db/schema/index";

export interface IngestProject {
  projectId: string;
  organizationId: string;
  projectNumber: number;
  keyId: string;
}

interface Entry {
  value: IngestProject | null;
  expires: number;
}

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Key → project lookups for the hot path. Unknown keys are cached too (negative cache), so a
 * client hammering with a bad key costs at most one query per key per minute. A revoked key stops
 * working within the TTL.
 */
export class ProjectKeyCache {
  private entries = new Map<string, Entry>();
  private inflight = new Map<string, Promise<IngestProject | null>>();
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
    const query = this.query(publicKey).finally(() => this.inflight.delete(publicKey));
    this.inflight.set(publicKey, query);
    return query;
  }

  private async query(publicKey: string) {
    this.queries += 1;
    const [row] = await this.db
      .select({ projectId: projects.id, organizationId: projects.organizationId, projectNumber: projects.number, keyId: projectKeys.id })
      .from(projectKeys)
      .innerJoin(projects, eq(projects.id, projectKeys.projectId))
      .where(and(eq(projectKeys.publicKey, publicKey), isNull(projectKeys.revokedAt)))
      .limit(1);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(publicKey, { value: row ?? null, expires: this.now() + TTL_MS });
    return row ?? null;
  }
}
