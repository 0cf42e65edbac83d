import { createHash } from "node:crypto";
import type { ArtifactType, DebugIdArtifacts, SourceMapStore, StoredArtifact, UrlArtifact } from "../../src/server/sourcemaps/source-map-store";

/** A stored file whose reads are counted (a test can prove a file over the cap is never read). */
export interface CountedArtifact extends StoredArtifact {
  reads: number;
}

/** `size` is the stored size; a test may claim a larger one to stand for a file it does not hold. */
export function artifactOf(content: string | Uint8Array, size?: number): CountedArtifact {
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  const artifact: CountedArtifact = {
    sha1: createHash("sha1").update(bytes).digest("hex"),
    size: size ?? bytes.byteLength,
    reads: 0,
    async read() {
      artifact.reads++;
      return new Uint8Array(bytes);
    },
  };
  return artifact;
}

/** The artifact with an index of `parts` (map-index-format.ts) kept beside it, its reads counted in `indexReads`. */
export function withIndex<T extends StoredArtifact>(artifact: T, parts: Uint8Array[]): T & { indexReads: number } {
  const indexed = Object.assign(artifact, { indexReads: 0 });
  indexed.index = {
    async read(numbers) {
      indexed.indexReads++;
      return new Map(numbers.filter((n) => n < parts.length).map((n) => [n, parts[n]]));
    },
  };
  return indexed;
}

/**
 * SourceMapStore in memory, for the symbolicator's tests: what the database implementation answers,
 * per project, without the upload side. Debug ids and URLs are matched exactly as given (debug ids
 * lower-cased), as the contract says.
 */
export class MemorySourceMapStore implements SourceMapStore {
  private readonly debugIds = new Map<string, DebugIdArtifacts>();
  private readonly urls = new Map<string, UrlArtifact>();
  private readonly releases = new Set<string>();
  /** Every call, in order, for tests of what was asked. */
  readonly calls: string[] = [];

  addDebugId(projectId: string, debugId: string, artifacts: DebugIdArtifacts) {
    this.debugIds.set(`${projectId}\n${debugId.toLowerCase()}`, artifacts);
  }

  addReleaseFile(
    projectId: string,
    release: string,
    dist: string | null,
    url: string,
    type: ArtifactType,
    file: StoredArtifact,
    sourceMapHeader: string | null = null,
  ) {
    this.releases.add(releaseKey(projectId, release, dist));
    this.urls.set(`${releaseKey(projectId, release, dist)}\n${url}`, { type, file, sourceMapHeader });
  }

  /** A release with a bundle that holds nothing useful for the test's files. */
  addRelease(projectId: string, release: string, dist: string | null) {
    this.releases.add(releaseKey(projectId, release, dist));
  }

  async findByDebugId(projectId: string, debugId: string) {
    this.calls.push(`debugId ${debugId}`);
    return this.debugIds.get(`${projectId}\n${debugId.toLowerCase()}`);
  }

  async findByUrl(projectId: string, release: string, dist: string | null, url: string) {
    this.calls.push(`url ${url}`);
    return this.urls.get(`${releaseKey(projectId, release, dist)}\n${url}`);
  }

  async hasRelease(projectId: string, release: string, dist: string | null) {
    this.calls.push(`release ${release}`);
    return this.releases.has(releaseKey(projectId, release, dist));
  }
}

const releaseKey = (projectId: string, release: string, dist: string | null) => `${projectId}\n${release}\n${dist ?? ""}`;
