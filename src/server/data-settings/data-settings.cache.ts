import type { Db } from "../db/client";
import type { ScrubSettings } from "../ingest/normalize/scrub-settings";
import { selectDataSettingsLayers } from "./data-settings.queries";
import { resolveScrubSettings } from "./data-settings.resolve";
import { scrubHashKey } from "./scrub-hash-key";

/** What the settings verbs tell ingest's cache, so this process applies a change at once. */
export interface DataSettingsChanges {
  /** An organization's settings changed (projectId null: every project of it may have). */
  changed(organizationId: string, projectId: string | null): void;
}

/**
 * A changed setting applies here at once (DataSettingsChanges) and on other replicas within this
 * long; one query per project per replica per period, not one per event.
 */
const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  organizationId: string;
  value: Promise<ScrubSettings>;
  expires: number;
}

/** Project → resolved scrub settings for ingest's hot path (the prepare context carries them to the workers). */
export class DataSettingsCache implements DataSettingsChanges {
  private entries = new Map<string, Entry>();
  /** Bumped by every change: a lookup that was already running then must not be cached. */
  private generation = 0;
  /** Database lookups made so far (tests read it). */
  queries = 0;

  constructor(
    private readonly db: Db,
    private readonly serverSecret: string,
    private readonly now: () => number = Date.now,
  ) {}

  forProject(organizationId: string, projectId: string): Promise<ScrubSettings> {
    const cached = this.entries.get(projectId);
    if (cached && cached.expires > this.now()) return cached.value;
    const generation = this.generation;
    const value = this.load(organizationId, projectId);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(projectId, { organizationId, value, expires: this.now() + TTL_MS });
    const forget = () => {
      if (this.entries.get(projectId)?.value === value) this.entries.delete(projectId);
    };
    value.then(
      () => {
        if (generation !== this.generation) forget();
      },
      // A failed read is not remembered: the next event asks again.
      forget,
    );
    return value;
  }

  changed(organizationId: string, projectId: string | null) {
    this.generation += 1;
    if (projectId !== null) this.entries.delete(projectId);
    else for (const [key, entry] of this.entries) if (entry.organizationId === organizationId) this.entries.delete(key);
  }

  private async load(organizationId: string, projectId: string): Promise<ScrubSettings> {
    this.queries += 1;
    const layers = await selectDataSettingsLayers(this.db, organizationId, projectId);
    return { ...resolveScrubSettings(layers.organization, layers.project), hashKey: scrubHashKey(this.serverSecret, organizationId) };
  }
}
