import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sentryEsbuildPlugin } from "@sentry/esbuild-plugin";
import { sentryVitePlugin } from "@sentry/vite-plugin";
import { build as esbuild } from "esbuild";
import { build as viteBuild } from "vite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { databaseSourceMapStore } from "../sourcemaps/database-source-map-store";
import { loopbackOnly } from "../../../test/helpers/loopback-only";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createOrganization, signUpVerified } from "../../../test/helpers/test-users";

/** A tiny app of three modules: the map must name all of them. */
const APP = {
  "src/format.js": `export function formatPrice(cents) {
  if (!Number.isFinite(cents)) throw new TypeError("price is not a number");
  return (cents / 100).toFixed(2);
}
`,
  "src/cart.js": `import { formatPrice } from "./format.js";

export function renderCart(items) {
  return items.map((item) => item.name + ": " + formatPrice(item.cents)).join("\\n");
}
`,
  "src/main.js": `import { renderCart } from "./cart.js";

globalThis.cartText = renderCart([{ name: "tea", cents: 250 }]);
`,
  "index.html": `<!doctype html><html><body><script type="module" src="/src/main.js"></script></body></html>
`,
};

/** The snippet both plugins inject, as esbuild (`"…"`) and Vite's minifier (`` `…` ``) print it. */
const DEBUG_ID_SNIPPET = /_sentryDebugIds\[\w+\]\s*=\s*["'`]([0-9a-f-]{36})["'`]/;

describe("source maps from the real bundler plugins (esbuild 5.x over sentry-cli 2.x, Vite 11.x with its own uploader)", () => {
  let server: TestServer;
  let work: string;
  let org: { id: string; slug: string };
  let project: { id: string; slug: string; number: number };
  let token: string;
  let readToken: string;
  let otherProject: { slug: string };
  let network: ReturnType<typeof loopbackOnly>;

  beforeAll(async () => {
    server = await startTestServer();
    work = mkdtempSync(path.join(tmpdir(), "faultline-bundler-plugins-"));
    const home = path.join(work, "home");
    await mkdir(home);
    const { session } = await signUpVerified(server);
    org = await createOrganization(session, "Plugin Shop");
    project = (await session.mutation("project.create", { name: "Storefront", platform: "REACT" })).data;
    token = (await session.mutation("apiToken.create", { name: "ci", scopes: ["project:releases"] })).data.secret;
    readToken = (await session.mutation("apiToken.create", { name: "read", scopes: ["project:read"] })).data.secret;
    otherProject = (await session.mutation("project.create", { name: "Back Office", platform: "REACT" })).data;

    // Both plugins read process.env, and hand it to the tools under them (the sentry-cli 2.x binary, the
    // Sentry CLI library in-process): no config or dotenv of the machine, no update check, no telemetry.
    vi.stubEnv("HOME", home);
    vi.stubEnv("SENTRY_CONFIG_DIR", path.join(home, ".sentry"));
    vi.stubEnv("SENTRY_DISABLE_UPDATE_CHECK", "true"); // sentry-cli 2.x
    vi.stubEnv("SENTRY_CLI_NO_UPDATE_CHECK", "1"); // the Sentry CLI library under the 11.x plugins
    vi.stubEnv("SENTRY_CLI_NO_TELEMETRY", "1"); // its own error reporting, on by default, which `telemetry: false` does not reach
    vi.stubEnv("DO_NOT_TRACK", "1");
    vi.stubEnv("SENTRY_LOAD_DOTENV", "0");
    vi.stubEnv("SENTRY_NO_PROGRESS_BARS", "1");
    vi.stubEnv("SENTRY_HTTP_MAX_RETRIES", "0");
    vi.stubEnv("SENTRY_LOG_LEVEL", "warn");
    // Nothing of the machine's Sentry settings (or a CI's commit and deploy defaults) leaks in.
    for (const name of [
      "SENTRY_URL",
      "SENTRY_AUTH_TOKEN",
      "SENTRY_ORG",
      "SENTRY_PROJECT",
      "SENTRY_RELEASE",
      "SENTRY_DSN",
      "SENTRY_PROPERTIES",
      "VERCEL",
      "CI",
    ]) {
      vi.stubEnv(name, undefined);
    }
    network = loopbackOnly();
  });
  afterAll(async () => {
    network?.restore();
    vi.unstubAllEnvs();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function writeApp(name: string) {
    const dir = path.join(work, name);
    for (const [file, text] of Object.entries(APP)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    return dir;
  }

  /** The options a user writes, pointed at the test server; release management without commits or deploys. */
  function pluginOptions(release: string, assets: string, errors: Error[]) {
    return {
      // API_URL's host exactly: the 11.x uploader refuses the absolute chunk-upload URL on any other (even 127.0.0.1).
      url: server.url,
      authToken: token,
      org: org.slug,
      project: project.slug,
      release: { name: release, setCommits: false as const, deploy: false as const },
      sourcemaps: { assets },
      telemetry: false,
      silent: true,
      errorHandler: (error: Error) => void errors.push(error),
    };
  }

  /** The emitted bundle's debug id, as the injected snippet registers it at runtime. */
  function debugIdOf(dist: string) {
    const files = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
    expect(files).toHaveLength(1);
    const code = readFileSync(path.join(dist, files[0]), "utf8");
    const debugId = DEBUG_ID_SNIPPET.exec(code)?.[1];
    expect(debugId, "the emitted JS carries the debug id snippet").toBeDefined();
    expect(code).toContain(`sentry-dbid-${debugId}`);
    return debugId!;
  }

  /** The bundle reached the store under the project, by debug id and by release + URL; the plugin finalized the release. */
  async function expectUploaded(debugId: string, release: string, sourceMapHeader: string) {
    const store = databaseSourceMapStore(server.services);
    const found = await vi.waitFor(
      async () => {
        const artifacts = await store.findByDebugId(project.id, debugId);
        if (!artifacts?.sourceMap) throw new Error("not assembled yet");
        return artifacts;
      },
      { timeout: 30_000, interval: 200 },
    );
    const map = JSON.parse(Buffer.from(await found.sourceMap!.read()).toString("utf8"));
    expect(map.debugId ?? map.debug_id).toBe(debugId);
    expect(map.sources.map((source: string) => source.replace(/^.*src\//, "src/"))).toEqual(
      expect.arrayContaining(["src/cart.js", "src/format.js", "src/main.js"]),
    );
    expect(map.sourcesContent.join("\n")).toContain("function formatPrice(cents)");
    expect(found.minifiedSource).toBeDefined();
    // Both plugins upload a copy named `<debug id>-<n>.js`, its map linked by the manifest's header
    // (`sourcemap` from sentry-cli 2.x, `Sourcemap` from the Sentry CLI library).
    const minified = await store.findByUrl(project.id, release, null, `~/${debugId}-0.js`);
    expect(minified).toMatchObject({ type: "minified_source", sourceMapHeader });
    expect(await store.findByDebugId("00000000-0000-4000-8000-000000000000", debugId)).toBeUndefined();
    const info = await fetch(`${server.url}/api/0/projects/${org.slug}/${project.slug}/releases/${encodeURIComponent(release)}/`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(info.status).toBe(200);
    expect((await info.json()).dateReleased, "the plugin finalized the release").not.toBeNull();
  }

  /** The Sentry tool API calls the server answered since `from`, with `{org}`, `{project}` and `{version}` put back. */
  function sentryApiCalls(from: number) {
    const calls = server.logs
      .slice(from)
      .filter((line) => line.msg === "request" && String(line.path).startsWith("/api/0/"))
      .map((line) =>
        `${line.method} ${decodeURIComponent(String(line.path))} ${line.status}`
          .replace(`/${org.slug}/`, "/{org}/")
          .replace(`/${project.slug}/`, "/{project}/")
          .replace(/\/releases\/storefront@[^/]+\//, "/releases/{version}/"),
      );
    return [...new Set(calls)];
  }

  it("@sentry/esbuild-plugin 5.x: the bundle carries a debug id and its map reaches the store", async () => {
    const dir = await writeApp("esbuild");
    const dist = path.join(dir, "dist");
    const errors: Error[] = [];
    const before = server.logs.length;
    await esbuild({
      entryPoints: [path.join(dir, "src/main.js")],
      outdir: dist,
      bundle: true,
      minify: true,
      sourcemap: true,
      format: "iife",
      logLevel: "silent",
      plugins: [sentryEsbuildPlugin(pluginOptions("storefront@1.0.0-esbuild", path.join(dist, "**"), errors))],
    });
    expect(errors).toEqual([]);
    // sentry-cli 2.x with one project: the project-scoped release calls, then the chunked upload.
    expect(sentryApiCalls(before)).toEqual([
      "POST /api/0/projects/{org}/{project}/releases/ 201",
      "PUT /api/0/projects/{org}/{project}/releases/{version}/ 200",
      "GET /api/0/organizations/{org}/chunk-upload/ 200",
      "POST /api/0/organizations/{org}/artifactbundle/assemble/ 200",
      "POST /api/0/organizations/{org}/chunk-upload/ 200",
    ]);
    const debugId = debugIdOf(dist);
    await expectUploaded(debugId, "storefront@1.0.0-esbuild", "main.js.map");
    expect(network.refused).toEqual([]);
  });

  it("@sentry/vite-plugin 11.x: the bundle carries a debug id and its map reaches the store", async () => {
    const dir = await writeApp("vite");
    const dist = path.join(dir, "dist");
    const errors: Error[] = [];
    const before = server.logs.length;
    await viteBuild({
      root: dir,
      configFile: false,
      logLevel: "silent",
      build: { outDir: dist, sourcemap: true, emptyOutDir: true, modulePreload: { polyfill: false } },
      plugins: [sentryVitePlugin(pluginOptions("storefront@1.0.0-vite", path.join(dist, "**"), errors))],
    });
    expect(errors).toEqual([]);
    // The Sentry CLI library: the organization first (for its region), organization-scoped releases.
    expect(sentryApiCalls(before)).toEqual([
      "GET /api/0/organizations/{org}/ 200",
      "POST /api/0/organizations/{org}/releases/ 201",
      "PUT /api/0/organizations/{org}/releases/{version}/ 200",
      "GET /api/0/organizations/{org}/chunk-upload/ 200",
      "POST /api/0/organizations/{org}/artifactbundle/assemble/ 200",
      "POST /api/0/organizations/{org}/chunk-upload/ 200",
    ]);
    const debugId = debugIdOf(dist);
    await expectUploaded(debugId, "storefront@1.0.0-vite", `${debugId}-0.js.map`);
    expect(network.refused).toEqual([]);
  });

  it("finalizes through the project-scoped PUT only a release of that project, with the scope (sentry-cli 2.x `releases finalize`)", async () => {
    const put = (projectRef: string, version: string, bearer = token) =>
      fetch(`${server.url}/api/0/projects/${org.slug}/${projectRef}/releases/${encodeURIComponent(version)}/`, {
        method: "PUT",
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
        body: JSON.stringify({ dateReleased: "2026-03-01T12:00:00Z" }),
      });
    const created = await fetch(`${server.url}/api/0/projects/${org.slug}/${project.slug}/releases/`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ version: "storefront@2.0.0" }),
    });
    expect(created.status).toBe(201);
    expect((await created.json()).dateReleased).toBeNull();
    const mine = await put(project.slug, "storefront@2.0.0");
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ version: "storefront@2.0.0", dateReleased: "2026-03-01T12:00:00.000Z" });
    expect((await put(String(project.number), "storefront@2.0.0")).status).toBe(200);

    const elsewhere = await put(otherProject.slug, "storefront@2.0.0");
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toEqual({ detail: "The requested resource does not exist" });
    expect((await put("no-such-project", "storefront@2.0.0")).status).toBe(404);
    expect((await put(project.slug, "9.9.9")).status).toBe(404);
    const readOnly = await put(project.slug, "storefront@2.0.0", readToken);
    expect(readOnly.status).toBe(403);
    expect(await readOnly.json()).toEqual({ detail: "This API token lacks the project:releases scope" });
  });
});
