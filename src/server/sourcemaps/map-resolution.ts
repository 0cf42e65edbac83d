import { createHash } from "node:crypto";
import type { FrameSymbolication } from "../../shared/occurrence.types";
import { findSourceMappingUrl, resolveMapUrl, urlCandidates, type MapReference } from "./artifact-urls";
import { MapInvalidError, type MapInput } from "./parsed-source-map";
import { SOURCE_MAP_LIMITS } from "./source-map-limits";
import { ArtifactGoneError, type MapIndexParts, type SourceMapStore, type StoredArtifact } from "./source-map-store";

/** Where a frame's map is: a key to look it up under (and how to read it), or why there is none. */
export type MapSource =
  | {
      kind: "map";
      /** The parsed-map cache key: the map's SHA-1 (an inline map: its minified file's SHA-1 + `#inline`). */
      key: string;
      load: () => Promise<MapInput>;
      /** The map's stored index, when the store keeps one: most lookups read a few of its parts instead of the map. */
      index?: MapIndexParts;
      /** The debug id the map was found by: the map must not declare another. */
      debugId: string | null;
    }
  | { kind: "unmapped"; reason: Exclude<FrameSymbolication, "mapped" | "no_mapping_at_position" | "source_missing"> };

export interface EventArtifacts {
  projectId: string;
  release: string | null;
  dist: string | null;
  /** code_file → debug id, from the event's `sourcemap` debug images. */
  debugIds: Map<string, string>;
}

/**
 * What a minified file's `sourceMappingURL` comment says, by the file's SHA-1: files are
 * content-addressed, so the answer never changes, and keeping it spares reading a large minified
 * file on every event. Bounded; oldest out.
 */
export class MapReferenceMemo {
  private readonly entries = new Map<string, MapReference | null>();
  constructor(private readonly max = 10_000) {}

  async of(file: StoredArtifact): Promise<MapReference | null> {
    if (this.entries.has(file.sha1)) return this.entries.get(file.sha1)!;
    if (file.size > SOURCE_MAP_LIMITS.maxMapBytes * 2) return null;
    let found: MapReference | null;
    try {
      found = findSourceMappingUrl(await file.read());
    } catch (error) {
      // Deleted since the store named it: no map through it (and nothing to remember).
      if (error instanceof ArtifactGoneError) return null;
      throw error;
    }
    // An inline map is tens of megabytes: remember only that there is one, read the file again to load it.
    const kept = found !== null && "inline" in found ? { inline: new Uint8Array(0) } : found;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(file.sha1, kept);
    return found;
  }
}

/**
 * Finds each frame file's map for one event, once per file: by debug id first (the image whose
 * `code_file` is the frame's file), then by release + dist + URL. Every store call names the
 * event's project (source-map-store.ts).
 */
export class MapResolver {
  private readonly byFile = new Map<string, Promise<MapSource>>();
  private releaseKnown: Promise<boolean> | null = null;

  constructor(
    private readonly store: SourceMapStore,
    private readonly event: EventArtifacts,
    private readonly references: MapReferenceMemo,
  ) {}

  /** `fileUrl` is the frame's `absPath`, else its `filename`; `debugId` the id an image gives its file, if any. */
  resolve(fileUrl: string, debugId: string | null): Promise<MapSource> {
    const memoKey = `${debugId ?? ""}\n${fileUrl}`;
    let found = this.byFile.get(memoKey);
    if (!found) {
      found = this.find(fileUrl, debugId);
      this.byFile.set(memoKey, found);
    }
    return found;
  }

  private async find(fileUrl: string, debugId: string | null): Promise<MapSource> {
    const byDebugId = debugId === null ? null : await this.byDebugId(debugId);
    if (byDebugId?.kind === "map") return byDebugId;
    const byUrl = this.event.release === null ? null : await this.byUrl(fileUrl, this.event.release);
    if (byUrl?.kind === "map") return byUrl;
    // The debug id is the primary path: its reason is the one to show.
    return byDebugId ?? byUrl ?? { kind: "unmapped", reason: "no_debug_id" };
  }

  private async byDebugId(debugId: string): Promise<MapSource> {
    const artifacts = await this.store.findByDebugId(this.event.projectId, debugId);
    if (artifacts === undefined) return { kind: "unmapped", reason: "bundle_not_found" };
    if (artifacts.sourceMap) return storedMap(artifacts.sourceMap, debugId);
    // Only the minified file: usable if it carries its map inline.
    if (artifacts.minifiedSource) {
      const inline = await this.inlineMap(artifacts.minifiedSource, debugId);
      if (inline) return inline;
    }
    return { kind: "unmapped", reason: "no_map_for_file" };
  }

  private async byUrl(fileUrl: string, release: string): Promise<MapSource> {
    const { projectId, dist } = this.event;
    this.releaseKnown ??= this.store.hasRelease(projectId, release, dist);
    if (!(await this.releaseKnown)) return { kind: "unmapped", reason: "bundle_not_found" };
    for (const candidate of urlCandidates(fileUrl)) {
      const stored = await this.store.findByUrl(projectId, release, dist, candidate);
      if (stored === undefined) continue;
      if (stored.type === "source_map") return storedMap(stored.file, null);
      const reference = stored.sourceMapHeader !== null ? { url: stored.sourceMapHeader } : await this.references.of(stored.file);
      if (reference === null) return { kind: "unmapped", reason: "no_map_for_file" };
      if ("inline" in reference) return (await this.inlineMap(stored.file, null)) ?? { kind: "unmapped", reason: "no_map_for_file" };
      const mapUrl = resolveMapUrl(reference.url, candidate);
      if (mapUrl.startsWith("data:")) {
        const key = `data:${createHash("sha1").update(mapUrl).digest("hex")}`;
        return { kind: "map", key, load: async () => ({ kind: "dataUrl", bytes: Buffer.from(mapUrl) }), debugId: null };
      }
      for (const mapCandidate of urlCandidates(mapUrl)) {
        const map = await this.store.findByUrl(projectId, release, dist, mapCandidate);
        if (map?.type === "source_map") return storedMap(map.file, null);
      }
      return { kind: "unmapped", reason: "no_map_for_file" };
    }
    return { kind: "unmapped", reason: "no_map_for_file" };
  }

  private async inlineMap(minified: StoredArtifact, debugId: string | null): Promise<MapSource | null> {
    const reference = await this.references.of(minified);
    if (reference === null || !("inline" in reference)) return null;
    return {
      kind: "map",
      key: `${minified.sha1}#inline`,
      debugId,
      load: async () => {
        const found = findSourceMappingUrl(await readCapped(minified, SOURCE_MAP_LIMITS.maxMapBytes * 2));
        if (found === null || !("inline" in found)) throw new MapInvalidError("the minified file no longer holds its inline map");
        return { kind: "dataUrl", bytes: found.inline };
      },
    };
  }
}

/** An uploaded map: cached under its SHA-1, read from its index where it has one. */
function storedMap(file: StoredArtifact, debugId: string | null): MapSource {
  return { kind: "map", key: file.sha1, load: () => readMap(file), index: file.index, debugId };
}

async function readMap(file: StoredArtifact): Promise<MapInput> {
  return { kind: "json", bytes: await readCapped(file, SOURCE_MAP_LIMITS.maxMapBytes) };
}

/** The size is checked before reading and again after: a file over the cap is never held whole. */
async function readCapped(file: StoredArtifact, cap: number): Promise<Uint8Array> {
  if (file.size > cap) throw new MapInvalidError(`the file is ${file.size} bytes, over the ${cap} byte cap`);
  let bytes: Uint8Array;
  try {
    bytes = await file.read();
  } catch (error) {
    // Deleted since the store named it (answers are reused for a few seconds): the map cannot be used.
    if (error instanceof ArtifactGoneError) throw new MapInvalidError("the file was deleted");
    throw error;
  }
  if (bytes.byteLength > cap) throw new MapInvalidError(`the file is ${bytes.byteLength} bytes, over the ${cap} byte cap`);
  return bytes;
}
