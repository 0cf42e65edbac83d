/**
 * What symbolication reads from the uploaded artifact bundles: the seam between the upload side
 * (sentry-cli's chunk upload and assemble, stored per project) and the symbolicator. Every lookup
 * names the project the event belongs to: a debug id or URL uploaded for another project, let alone
 * another organization, is never found.
 */

/** An uploaded file, content-addressed: parsed source maps are cached by `sha1`. */
export interface StoredArtifact {
  /** SHA-1 hex of the file's bytes. */
  sha1: string;
  size: number;
  /** Fresh bytes on every call, owned by the caller: the symbolicator moves them to its worker thread (detaching them). */
  read(): Promise<Uint8Array>;
  /** The parts of the file's index (map-index-format.ts), where the store keeps indexes of the maps it holds. */
  index?: MapIndexParts;
}

/** A source map's index, read a few parts at a time. */
export interface MapIndexParts {
  /** The stored parts among `parts`, by number; an index not built (yet) has no part 0. */
  read(parts: readonly number[]): Promise<Map<number, Uint8Array>>;
  /** Stores a newly built index (map-index-build.ts), where the store can: a map found without one gets it. */
  save?(parts: Uint8Array[]): Promise<void>;
}

/** The file was deleted after it was found (its bundle deleted meanwhile). */
export class ArtifactGoneError extends Error {}

export type ArtifactType = "source" | "minified_source" | "source_map" | "indexed_ram_bundle";

export interface DebugIdArtifacts {
  /** The source map uploaded under the debug id; undefined when the bundle holds only the minified file. */
  sourceMap?: StoredArtifact;
  /** The minified file uploaded under the debug id, if any. */
  minifiedSource?: StoredArtifact;
}

export interface UrlArtifact {
  type: ArtifactType;
  file: StoredArtifact;
  /** The manifest's `sourcemap` (or `x-sourcemap`) header of a minified file: its map's URL, maybe relative. */
  sourceMapHeader: string | null;
}

export interface SourceMapStore {
  /** The files a bundle of this project holds for `debugId`; undefined when no bundle of the project has it. */
  findByDebugId(projectId: string, debugId: string): Promise<DebugIdArtifacts | undefined>;
  /**
   * The file stored for `release` (+ `dist`, null for none) under `url` exactly as the manifest wrote it
   * (`~/assets/app.js`, `https://cdn.example/app.js`); the caller tries the URL candidates in order.
   */
  findByUrl(projectId: string, release: string, dist: string | null, url: string): Promise<UrlArtifact | undefined>;
  /** Whether any bundle of the project was uploaded for `release` (+ `dist`): tells `bundle_not_found` from `no_map_for_file`. */
  hasRelease(projectId: string, release: string, dist: string | null): Promise<boolean>;
}
