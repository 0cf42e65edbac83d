import type { SourceMapStore } from "./source-map-store";

/** How long an answer is reused: the bound on how late another replica sees an upload or a deletion. */
export const STORE_ANSWER_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/** A SourceMapStore whose answers can be forgotten for projects whose bundles changed. */
export interface CachedSourceMapStore extends SourceMapStore {
  /** This process assembled or deleted bundles of these projects: their next lookups read the database. */
  forget(projectIds: readonly string[]): void;
}

/**
 * The store's answers (where a debug id's or a URL's files are, whether a release has bundles)
 * reused for a few seconds: every event of a deploy names the same few files, and asking the
 * database for each costs more than mapping its frames. Bundles change only by upload and
 * deletion; this process forgets a project's answers when it assembles one for it, other replicas
 * within STORE_ANSWER_TTL_MS. A lookup that was running when its project was forgotten is not kept.
 */
export function cachedSourceMapStore(inner: SourceMapStore, now: () => number = Date.now): CachedSourceMapStore {
  const entries = new Map<string, { projectId: string; expires: number; answer: Promise<unknown> }>();
  let generation = 0;

  function cached<T>(projectId: string, key: string, ask: () => Promise<T>): Promise<T> {
    const hit = entries.get(key);
    if (hit !== undefined && hit.expires > now()) return hit.answer as Promise<T>;
    const started = generation;
    const answer = ask();
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(key, { projectId, expires: now() + STORE_ANSWER_TTL_MS, answer });
    // A failed lookup (the database down) is asked again by the next event; one overtaken by forget() is not kept.
    answer.then(
      () => {
        if (started !== generation && entries.get(key)?.answer === answer) entries.delete(key);
      },
      () => {
        if (entries.get(key)?.answer === answer) entries.delete(key);
      },
    );
    return answer;
  }

  return {
    findByDebugId: (projectId, debugId) =>
      cached(projectId, JSON.stringify(["d", projectId, debugId.toLowerCase()]), () => inner.findByDebugId(projectId, debugId)),
    findByUrl: (projectId, release, dist, url) =>
      cached(projectId, JSON.stringify(["u", projectId, release, dist, url]), () => inner.findByUrl(projectId, release, dist, url)),
    hasRelease: (projectId, release, dist) =>
      cached(projectId, JSON.stringify(["r", projectId, release, dist]), () => inner.hasRelease(projectId, release, dist)),
    forget(projectIds) {
      generation += 1;
      const forgotten = new Set(projectIds);
      for (const [key, entry] of entries) if (forgotten.has(entry.projectId)) entries.delete(key);
    },
  };
}
