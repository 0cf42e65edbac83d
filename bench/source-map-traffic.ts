import { createHash, randomUUID } from "node:crypto";
import type { Db } from "../src/server/db/client";
import { insertBlob, insertBundle, insertIndexParts } from "../src/server/sourcemaps/artifact.queries";
import { buildMapIndex } from "../src/server/sourcemaps/map-index-build";
import { parseSourceMap } from "../src/server/sourcemaps/parsed-source-map";
import { buildBundle } from "../test/helpers/esbuild-bundle";
import { generatedSources, throwSites } from "./generated-app";

/**
 * `bench:ingest --source-maps absent|uploaded`: the JavaScript events of the mix thrown from a
 * minified bundle (their in-app frames at its throw sites, a `sourcemap` debug image naming it),
 * sent to a project that has the bundle's map uploaded and indexed, or has none — the same
 * traffic either way, so the two runs differ only in the symbolication done.
 */
export interface BundleTraffic {
  url: string;
  debugId: string;
  map: Buffer;
  sites: { lineno: number; colno: number }[];
}

const FRAMES_PER_EXCEPTION = 5;

export async function buildBundleTraffic(modules = 400): Promise<BundleTraffic> {
  const bundle = await buildBundle(generatedSources(modules), "src/index.ts");
  return { url: "https://shop.example/assets/app.js", debugId: randomUUID(), map: Buffer.from(bundle.map), sites: throwSites(bundle.code) };
}

/** Rewrites a JavaScript event of the mix (rank `rank`) as thrown from the bundle; other platforms are left alone. */
export function throwFromBundle(traffic: BundleTraffic) {
  return (event: Record<string, any>, rank: number) => {
    if (event.platform !== "node" && event.platform !== "javascript") return;
    for (const [e, exception] of (event.exception?.values ?? []).entries()) {
      if (!exception.stacktrace) continue;
      exception.stacktrace.frames = Array.from({ length: FRAMES_PER_EXCEPTION }, (_, i) => ({
        filename: traffic.url,
        abs_path: traffic.url,
        function: "x",
        in_app: true,
        ...traffic.sites[(rank * 7 + e * FRAMES_PER_EXCEPTION + i) % traffic.sites.length],
      }));
    }
    event.debug_meta = { images: [{ type: "sourcemap", code_file: traffic.url, debug_id: traffic.debugId }] };
  };
}

/** The map as an upload leaves it: the blob, a bundle of the project naming it by debug id, and its index. */
export async function uploadBundleMap(db: Db, project: { organizationId: string; projectId: string }, traffic: BundleTraffic) {
  const sha1 = createHash("sha1").update(traffic.map).digest("hex");
  const { organizationId, projectId } = project;
  await insertBlob(db, organizationId, sha1, traffic.map.length, traffic.map);
  await insertBundle(db, { organizationId, projectId, checksum: sha1, bundleId: null, release: null, dist: null, fileCount: 1, size: traffic.map.length }, [
    { type: "source_map", url: "~/assets/app.js.map", debugId: traffic.debugId, sourceMap: null, sha1, size: traffic.map.length },
  ]);
  const index = buildMapIndex(parseSourceMap({ kind: "json", bytes: traffic.map }));
  if (index.status !== "indexed") throw new Error(`the bench's map was not indexed: ${index.reason}`);
  await insertIndexParts(db, organizationId, sha1, index.parts);
}
