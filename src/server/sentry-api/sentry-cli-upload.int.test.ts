import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { artifactAssemblies, artifactBlobs, artifactBundles } from "../db/schema/index";
import { databaseSourceMapStore } from "../sourcemaps/database-source-map-store";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createOrganization, signUpVerified } from "../../../test/helpers/test-users";
import { writeBundle, writeZip } from "../../../test/helpers/zip-writer";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");
const CLI = {
  "3.x": [path.join(ROOT, "node_modules/.bin/sentry-cli")],
  "2.x": [process.execPath, path.join(ROOT, "node_modules/@sentry/cli-v2/bin/sentry-cli")],
} as const;

const SOURCE = `export function renderPrice(cents) {
  if (cents < 0) throw new Error("negative price");
  return (cents / 100).toFixed(2);
}
renderPrice(Number(globalThis.process?.argv?.[2] ?? 1));
`;

describe("source maps from the real sentry-cli (2.x and 3.x) through the Sentry tool API", () => {
  let server: TestServer;
  let work: string;
  let home: string;
  let org: { id: string; slug: string };
  let project: { id: string; slug: string; number: number };
  let uploadToken: string;
  let readToken: string;
  let otherOrg: { slug: string; token: string };

  beforeAll(async () => {
    server = await startTestServer();
    work = mkdtempSync(path.join(tmpdir(), "faultline-sentry-cli-"));
    home = path.join(work, "home");
    await mkdir(home);
    const { session } = await signUpVerified(server);
    org = await createOrganization(session, "Map Makers");
    project = (await session.mutation("project.create", { name: "Web Shop", platform: "REACT" })).data;
    uploadToken = (await session.mutation("apiToken.create", { name: "ci", scopes: ["project:releases"] })).data.secret;
    readToken = (await session.mutation("apiToken.create", { name: "read", scopes: ["project:read"] })).data.secret;
    const stranger = await signUpVerified(server);
    const strangerOrg = await createOrganization(stranger.session, "Strangers");
    await stranger.session.mutation("project.create", { name: "Web Shop", platform: "REACT" });
    otherOrg = {
      slug: strangerOrg.slug,
      token: (await stranger.session.mutation("apiToken.create", { name: "ci", scopes: ["project:releases"] })).data.secret,
    };
  });
  afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A minified bundle with its source map, built by the real esbuild. */
  async function buildApp(name: string, banner: string) {
    const dir = path.join(work, name);
    await mkdir(path.join(dir, "src"), { recursive: true });
    await writeFile(path.join(dir, "src/app.js"), `// ${banner}\n${SOURCE}`);
    await build({
      entryPoints: [path.join(dir, "src/app.js")],
      outfile: path.join(dir, "dist/app.js"),
      bundle: true,
      minify: true,
      sourcemap: true,
      format: "iife",
      logLevel: "silent",
    });
    return path.join(dir, "dist");
  }

  /** The real CLI, talking only to the loopback test server: no update check, no config file, no proxy. */
  async function sentryCli(version: keyof typeof CLI, args: string[], env: { project: string; token?: string; org?: string }) {
    const [command, ...prefix] = CLI[version];
    try {
      const result = await run(command, [...prefix, ...args], {
        cwd: work,
        timeout: 120_000,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          SENTRY_URL: server.url.replace("localhost", "127.0.0.1"),
          SENTRY_AUTH_TOKEN: env.token ?? uploadToken,
          SENTRY_ORG: env.org ?? org.slug,
          SENTRY_PROJECT: env.project,
          SENTRY_DISABLE_UPDATE_CHECK: "true",
          SENTRY_LOAD_DOTENV: "0",
          SENTRY_NO_PROGRESS_BARS: "1",
          SENTRY_LOG_LEVEL: "warn",
          SENTRY_HTTP_MAX_RETRIES: "0",
        },
      });
      return { code: 0, output: `${result.stdout}${result.stderr}` };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
    }
  }

  const assemblies = () => server.services.db.select().from(artifactAssemblies).where(eq(artifactAssemblies.organizationId, org.id));
  const store = () => databaseSourceMapStore(server.services);

  for (const [version, ref] of [
    ["3.x", "slug"],
    ["2.x", "number"],
  ] as const) {
    it(`${version}: inject + upload with SENTRY_PROJECT as the ${ref}; the bundle reaches ok and the store finds the map by debug id`, async () => {
      const dist = await buildApp(`debug-id-${version}`, version);
      const projectRef = ref === "slug" ? project.slug : String(project.number);
      const inject = await sentryCli(version, ["sourcemaps", "inject", dist], { project: projectRef });
      expect(inject.code, inject.output).toBe(0);
      const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(readFileSync(path.join(dist, "app.js"), "utf8"))?.[1];
      expect(debugId).toBeDefined();
      const upload = await sentryCli(version, ["sourcemaps", "upload", dist], { project: projectRef });
      expect(upload.code, upload.output).toBe(0);
      const found = await vi.waitFor(
        async () => {
          const artifacts = await store().findByDebugId(project.id, debugId!);
          if (!artifacts?.sourceMap) throw new Error("not assembled yet");
          return artifacts;
        },
        { timeout: 30_000, interval: 200 },
      );
      const map = JSON.parse(Buffer.from(await found.sourceMap!.read()).toString("utf8"));
      expect(map.sourcesContent.join("\n")).toContain("renderPrice");
      expect(map.debugId ?? map.debug_id).toBe(debugId);
      expect(found.minifiedSource).toBeDefined();
      expect((await assemblies()).some((row) => row.state === "ok")).toBe(true);
      // Another project of the organization, let alone another organization, never finds it.
      expect(await store().findByDebugId("00000000-0000-4000-8000-000000000000", debugId!)).toBeUndefined();
    });
  }

  for (const [version, ref] of [
    ["3.x", "number"],
    ["2.x", "slug"],
  ] as const) {
    it(`${version}: a release-based upload without debug ids (--release --url-prefix), SENTRY_PROJECT as the ${ref}, is found by release and URL`, async () => {
      const release = `1.4.0-${version}`;
      const dist = await buildApp(`release-${version}`, `release ${version}`);
      const projectRef = ref === "slug" ? project.slug : String(project.number);
      const upload = await sentryCli(version, ["sourcemaps", "upload", "--release", release, "--url-prefix", "~/assets", dist], { project: projectRef });
      expect(upload.code, upload.output).toBe(0);
      const found = await vi.waitFor(
        async () => {
          const artifact = await store().findByUrl(project.id, release, null, "~/assets/app.js.map");
          if (!artifact) throw new Error("not assembled yet");
          return artifact;
        },
        { timeout: 30_000, interval: 200 },
      );
      expect(found.type).toBe("source_map");
      const minified = await store().findByUrl(project.id, release, null, "~/assets/app.js");
      expect(minified?.type).toBe("minified_source");
      expect(minified?.sourceMapHeader).toBe("app.js.map");
      expect(await store().hasRelease(project.id, release, null)).toBe(true);
      expect(await store().hasRelease(project.id, "9.9.9", null)).toBe(false);
      const info = await fetch(`${server.url}/api/0/projects/${org.slug}/${project.slug}/releases/${release}/`, { headers: bearer(uploadToken) });
      expect(info.status).toBe(200);
      expect((await info.json()).version).toBe(release);
    });
  }

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const api = (pathname: string, init: RequestInit & { token?: string } = {}) =>
    fetch(`${server.url}/api/0${pathname}`, {
      ...init,
      headers: { ...bearer(init.token ?? uploadToken), ...(init.body && typeof init.body === "string" ? { "content-type": "application/json" } : {}) },
    });

  async function uploadChunk(bytes: Buffer, name = createHash("sha1").update(bytes).digest("hex")) {
    const form = new FormData();
    form.append("file_gzip", new Blob([new Uint8Array(gzipSync(bytes))]), name);
    return api(`/organizations/${org.slug}/chunk-upload/`, { method: "POST", body: form });
  }

  /** Uploads a bundle as sentry-cli does (one chunk) and polls its assembly to the end. */
  async function uploadBundle(bundle: Buffer) {
    const checksum = createHash("sha1").update(bundle).digest("hex");
    const body = JSON.stringify({ checksum, chunks: [checksum], projects: [project.slug] });
    const first = await api(`/organizations/${org.slug}/artifactbundle/assemble/`, { method: "POST", body });
    expect(await first.json()).toEqual({ state: "not_found", missingChunks: [checksum], detail: null });
    expect((await uploadChunk(bundle)).status).toBe(200);
    const final = await vi.waitFor(
      async () => {
        const answer = await (await api(`/organizations/${org.slug}/artifactbundle/assemble/`, { method: "POST", body })).json();
        if (answer.state !== "ok" && answer.state !== "error") throw new Error(answer.state);
        return answer as { state: string; detail: string | null };
      },
      { timeout: 30_000, interval: 200 },
    );
    const stored = await server.services.db
      .select()
      .from(artifactBundles)
      .where(and(eq(artifactBundles.organizationId, org.id), eq(artifactBundles.checksum, checksum)));
    return { ...final, storedBundles: stored.length };
  }

  it("lists a project's bundles and deletes them per release and one by one (REST with API tokens); the store then finds nothing", async () => {
    const v1 = (pathname: string, token: string, method = "GET") =>
      fetch(`${server.url}/api/v1/organizations/${org.id}/projects/${project.id}/source-maps${pathname}`, { method, headers: bearer(token) });
    const all = await (await v1("", readToken)).json();
    expect(all.length).toBeGreaterThanOrEqual(4);
    const release = await (await v1("?release=1.4.0-3.x", readToken)).json();
    expect(release).toHaveLength(1);
    expect(release[0]).toMatchObject({ release: "1.4.0-3.x", dist: null });
    expect(release[0].fileCount).toBe(2);

    expect((await v1("?release=1.4.0-3.x", readToken, "DELETE")).status).toBe(403);
    const deleted = await v1("?release=1.4.0-3.x", uploadToken, "DELETE");
    expect(await deleted.json()).toEqual({ deleted: 1 });
    expect(await store().findByUrl(project.id, "1.4.0-3.x", null, "~/assets/app.js.map")).toBeUndefined();
    expect(await store().hasRelease(project.id, "1.4.0-3.x", null)).toBe(false);

    const one = all.find((bundle: { release: string | null }) => bundle.release === null);
    expect((await v1(`/${one.id}`, uploadToken, "DELETE")).status).toBe(200);
    expect((await v1(`/${one.id}`, uploadToken, "DELETE")).status).toBe(404);
    expect((await (await v1("", readToken)).json()).length).toBe(all.length - 2);
  });

  it("answers the chunk-upload options sentry-cli 2.x needs, and auth info", async () => {
    const options = await (await api(`/organizations/${org.slug}/chunk-upload/`)).json();
    expect(options).toMatchObject({ chunkSize: 8 * 1024 * 1024, hashAlgorithm: "sha1", compression: ["gzip"] });
    expect(options.url).toBe(`${server.url}/api/0/organizations/${org.slug}/chunk-upload/`);
    expect(options.accept).toEqual(expect.arrayContaining(["release_files", "artifact_bundles", "artifact_bundles_v2"]));
    const info = await (await api("/")).json();
    expect(info.auth.scopes).toEqual(["org:read", "project:releases"]);
    const projects = await (await api(`/organizations/${org.slug}/projects/`, { token: readToken })).json();
    expect(projects.map((p: { slug: string }) => p.slug)).toEqual([project.slug]);
  });

  it("refuses a chunk whose SHA-1 does not match its name (400), and keeps nothing of it", async () => {
    const answer = await uploadChunk(Buffer.from("some bytes"), "0".repeat(40));
    expect(answer.status).toBe(400);
    expect((await answer.json()).detail).toBe(`Chunk ${"0".repeat(40)} does not match its SHA-1`);
  });

  it("ends hostile bundles in the error state with a detail, storing nothing: a zip bomb, ../ names, 10,000 tiny files", async () => {
    const blobsBefore = (await server.services.db.select().from(artifactBlobs).where(eq(artifactBlobs.organizationId, org.id))).length;
    const bomb = writeZip(
      [
        { name: "manifest.json", data: JSON.stringify({ files: { "files/_/_/a.js": { type: "source", url: "~/a.js" } } }) },
        { name: "files/_/_/a.js", data: new Uint8Array(4 * 1024 * 1024), declaredSize: 100 },
      ],
      { sysb: true },
    );
    const bombResult = await uploadBundle(bomb);
    expect(bombResult).toMatchObject({ state: "error", storedBundles: 0 });
    expect(bombResult.detail).toMatch(/zip bomb/);

    const escape = writeBundle([
      { path: "files/_/_/ok.js", type: "source", url: "~/ok.js", data: "ok" },
      { path: "files/../../escape.js", type: "source", url: "~/escape.js", data: "x" },
    ]);
    const escapeResult = await uploadBundle(escape);
    expect(escapeResult).toMatchObject({ state: "error", storedBundles: 0 });
    expect(escapeResult.detail).toMatch(/outside itself/);

    const many = writeBundle(Array.from({ length: 10_000 }, (_, i) => ({ path: `files/_/_/f${i}.js`, type: "source", url: `~/f${i}.js`, data: `${i}` })));
    // Writing that zip held this process — the server's too — for seconds: a turn of the event loop
    // lets the server close the keep-alive sockets that timed out meanwhile before fetch reuses one
    // (reusing it raced the close: ECONNRESET).
    await new Promise((resolve) => setTimeout(resolve, 50));
    const manyResult = await uploadBundle(many);
    expect(manyResult).toMatchObject({ state: "error", storedBundles: 0, detail: "The bundle holds 10001 files; at most 5000 are accepted per bundle" });

    const blobsAfter = (await server.services.db.select().from(artifactBlobs).where(eq(artifactBlobs.organizationId, org.id))).length;
    expect(blobsAfter).toBe(blobsBefore);
  });

  it("refuses a token without project:releases (403), another organization's slug like an unknown one (404), and no token (401)", async () => {
    const body = JSON.stringify({ checksum: "a".repeat(40), chunks: ["a".repeat(40)], projects: [project.slug] });
    const noScope = await api(`/organizations/${org.slug}/artifactbundle/assemble/`, { method: "POST", body, token: readToken });
    expect(noScope.status).toBe(403);
    expect((await noScope.json()).detail).toBe("This API token lacks the project:releases scope");
    expect((await api(`/organizations/${org.slug}/chunk-upload/`, { token: readToken })).status).toBe(403);

    const foreign = await api(`/organizations/${otherOrg.slug}/artifactbundle/assemble/`, { method: "POST", body });
    const unknown = await api(`/organizations/no-such-org/artifactbundle/assemble/`, { method: "POST", body });
    expect([foreign.status, unknown.status]).toEqual([404, 404]);
    expect(await foreign.json()).toEqual(await unknown.json());
    // The stranger's own token cannot reach this organization either, nor name its project in its own.
    expect((await api(`/organizations/${org.slug}/projects/`, { token: otherOrg.token })).status).toBe(404);

    const anonymous = await fetch(`${server.url}/api/0/organizations/${org.slug}/chunk-upload/`);
    expect(anonymous.status).toBe(401);
    expect(Object.keys(await anonymous.json())).toEqual(["detail"]);
  });
});
