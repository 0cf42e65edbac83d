import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createOrganization, signUpVerified } from "../../../test/helpers/test-users";
import { insertBlob, insertBundle } from "./artifact.queries";
import { databaseSourceMapStore } from "./database-source-map-store";

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
