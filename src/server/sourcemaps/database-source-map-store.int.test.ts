import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createOrganization, signUpVerified } from "../../../test/helpers/test-users";
import { eq } from "drizzle-orm";
import { buildBundle } from "../../../test/helpers/esbuild-bundle";
import { artifactBundles, sourceMapIndexParts } from "../db/schema/index";
import { deleteUnreferencedBlobs, insertBlob, insertBundle } from "./artifact.queries";
import { databaseSourceMapStore } from "./database-source-map-store";
import { IndexedMapLookup } from "./indexed-map-lookup";
import { indexStoredMaps } from "./map-indexing";
import { originalPositions, parseSourceMap } from "./parsed-source-map";
import { SourceMapWorkers } from "./source-map-workers";

const DEBUG_ID = "c0ffee00-0000-4000-8000-00000000b16b";

describe("the database source-map store", () => {
  let server: TestServer;
  let organizationId: string;
  let projectId: string;
  let otherProjectId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const { session } = await signUpVerified(server);
    organizationId = (await createOrganization(session, "Big Maps")).id;
    projectId = (await session.mutation("project.create", { name: "Web", platform: "BROWSER_JS" })).data.id;
    otherProjectId = (await session.mutation("project.create", { name: "Admin", platform: "BROWSER_JS" })).data.id;
  });
  afterAll(() => server?.close());

  it("reads a map larger than its read slice whole, byte for byte, and only for the project it was uploaded for", async () => {
    // Two and a half slices, so the last one is partial.
    const bytes = randomBytes(2.5 * 1024 * 1024);
    const sha1 = createHash("sha1").update(bytes).digest("hex");
    const { db } = server.services;
    await insertBlob(db, organizationId, sha1, bytes.length, bytes);
    await insertBundle(
      db,
      { organizationId, projectId, checksum: "a".repeat(40), bundleId: null, release: null, dist: null, fileCount: 1, size: bytes.length },
      [{ type: "source_map", url: "~/app.js.map", debugId: DEBUG_ID, sourceMap: null, sha1, size: bytes.length }],
    );
    const store = databaseSourceMapStore(server.services);
    const found = await store.findByDebugId(projectId, DEBUG_ID);
    expect(found?.sourceMap?.size).toBe(bytes.length);
    const read = await found!.sourceMap!.read();
    expect(Buffer.from(read).equals(bytes)).toBe(true);
    expect(await store.findByDebugId(otherProjectId, DEBUG_ID)).toBeUndefined();
  });
});

describe("map indexes in the database", () => {
  let server: TestServer;
  let organizationId: string;
  let projectId: string;
  let workers: SourceMapWorkers;

  beforeAll(async () => {
    server = await startTestServer();
    const { session } = await signUpVerified(server);
    organizationId = (await createOrganization(session, "Indexed Maps")).id;
    projectId = (await session.mutation("project.create", { name: "Web", platform: "BROWSER_JS" })).data.id;
    workers = new SourceMapWorkers(server.services.logger);
  });
  afterAll(async () => {
    await workers?.close();
    await server?.close();
  });

  it("are built on the worker once per map, read back a few parts at a time through the store, and go with their map", async () => {
    const source = Array.from(
      { length: 40 },
      (_, i) => `export function step${i}(n: number) {\n  if (n > ${i}) throw new Error("step ${i}");\n  return n;\n}\n`,
    ).join("");
    const bundle = await buildBundle({ "src/steps.ts": source, "src/main.ts": 'export * from "./steps";\n' }, "src/main.ts");
    const bytes = Buffer.from(bundle.map);
    const sha1 = createHash("sha1").update(bytes).digest("hex");
    const { db } = server.services;
    await insertBlob(db, organizationId, sha1, bytes.length, bytes);
    const bundleId = await insertBundle(
      db,
      { organizationId, projectId, checksum: "b".repeat(40), bundleId: null, release: null, dist: null, fileCount: 1, size: bytes.length },
      [{ type: "source_map", url: "~/app.js.map", debugId: DEBUG_ID, sourceMap: null, sha1, size: bytes.length }],
    );

    const map = { sha1, size: bytes.length };
    expect(await indexStoredMaps(server.services, workers, organizationId, [map])).toBe(1);
    // Indexed already: nothing is built twice.
    expect(await indexStoredMaps(server.services, workers, organizationId, [map])).toBe(0);

    const found = await databaseSourceMapStore(server.services).findByDebugId(projectId, DEBUG_ID);
    expect(found?.sourceMap?.index).toBeDefined();
    const throwAt = bundle.code.indexOf("throw new Error");
    const position = { line: 1, column: throwAt - bundle.code.lastIndexOf("\n", throwAt) - 1 };
    const neverRead = async (): Promise<never> => {
      throw new Error("the whole map was read");
    };
    const answer = await new IndexedMapLookup(workers).lookup(sha1, neverRead, [position], found!.sourceMap!.index);
    expect(answer).toEqual({
      status: "ok",
      debugId: null,
      positions: originalPositions(parseSourceMap({ kind: "json", bytes }), [position]),
    });
    expect(answer).toMatchObject({ positions: [{ source: "../src/steps.ts", line: 2, context: { line: '  if (n > 0) throw new Error("step 0");' } }] });

    // Deleting the bundle and its now unreferenced blob takes the index with it.
    await db.delete(artifactBundles).where(eq(artifactBundles.id, bundleId));
    expect(await deleteUnreferencedBlobs(db, organizationId, [sha1])).toEqual([sha1]);
    expect(await db.select().from(sourceMapIndexParts).where(eq(sourceMapIndexParts.sha1, sha1))).toEqual([]);
  });
});
