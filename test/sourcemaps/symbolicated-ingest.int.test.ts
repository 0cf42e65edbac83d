import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourceMapIndexParts } from "../../src/server/db/schema/index";
import type { NormalizedFrame, NormalizedOccurrence } from "../../src/shared/occurrence.types";
import { sentryCli } from "../helpers/sentry-cli";
import { startTestServer, type TestServer } from "../helpers/test-server";
import type { HttpSession } from "../helpers/http-session";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

/** The application: a price formatter two calls below the entry point. */
const PRICE = `export function formatPrice(cents) {
  if (cents < 0) {
    throw new RangeError("negative price: " + cents);
  }
  return (cents / 100).toFixed(2);
}

export function renderPrice(cents) {
  return "EUR " + formatPrice(cents);
}
`;

/** The entry point: the real @sentry/node, one captured error, flushed. `extra` changes what the minifier names things. */
const main = (extra: string) => `const Sentry = require("@sentry/node");
import { renderPrice } from "./price.js";
${extra}
Sentry.init({ dsn: process.env.DSN, release: "shop@1.0.0", defaultIntegrations: false });
let id;
try {
  renderPrice(-5);
} catch (error) {
  id = Sentry.captureException(error);
}
Sentry.close(5000).then(() => process.stdout.write(JSON.stringify({ id }) + "\\n"));
`;

const EXTRA = `function padLeft(a, b) { let c = String(a); while (c.length < b) c = " " + c; return c; }
export const banner = [1, 2, 3].map((a) => padLeft(a, 4)).join("");
`;

describe("source maps applied at ingest: a real @sentry/node error from a minified bundle", () => {
  let server: TestServer;
  let session: HttpSession;
  let work: string;
  let project: { id: string; slug: string; dsn: string };
  let token: string;
  let orgSlug: string;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer();
    work = mkdtempSync(path.join(tmpdir(), "faultline-symbolicated-"));
    ({ session } = await signUpVerified(server));
    ({ slug: orgSlug, id: orgId } = await createOrganization(session, "Price Tags"));
    const created = (await session.mutation("project.create", { name: "Checkout", platform: "NODE_JS" })).data;
    project = { id: created.id, slug: created.slug, dsn: created.dsn };
    token = (await session.mutation("apiToken.create", { name: "ci", scopes: ["project:releases"] })).data.secret;
  });
  afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A minified CommonJS bundle with its map, debug ids injected by the real sentry-cli. */
  async function buildApp(name: string, extra: string) {
    const dir = path.join(work, name);
    await mkdir(path.join(dir, "src"), { recursive: true });
    await writeFile(path.join(dir, "src/price.js"), PRICE);
    await writeFile(path.join(dir, "src/main.js"), main(extra));
    await build({
      entryPoints: [path.join(dir, "src/main.js")],
      outfile: path.join(dir, "dist/main.js"),
      bundle: true,
      minify: true,
      sourcemap: true,
      platform: "node",
      format: "cjs",
      external: ["@sentry/node"],
      logLevel: "silent",
    });
    await cli(["sourcemaps", "inject", path.join(dir, "dist")]);
    return path.join(dir, "dist");
  }

  const cli = (args: string[]) => sentryCli({ url: server.url, token, org: orgSlug, project: project.slug, work }, args);

  /** Runs the bundle (the SDK resolved from the repository's node_modules) and reads the stored event. */
  async function throwFrom(dist: string) {
    const { stdout } = await run(process.execPath, [path.join(dist, "main.js")], {
      timeout: 60_000,
      env: { PATH: process.env.PATH, DSN: project.dsn, NODE_PATH: path.join(ROOT, "node_modules") },
    });
    const eventId = (JSON.parse(stdout.trim().split("\n").at(-1)!) as { id: string }).id;
    const exceptions = await session.query<{ items: { id: string; eventId: string; issueId: string }[] }>("exception.list", { projectId: project.id });
    const listed = exceptions.data?.items.find((item) => item.eventId === eventId);
    if (!listed) throw new Error(`event ${eventId} not stored`);
    const detail = await session.query<{ issueId: string; data: NormalizedOccurrence }>("exception.get", { projectId: project.id, exceptionId: listed.id });
    if (!detail.data) throw new Error(`exception ${listed.id} not readable (${detail.status})`);
    return detail.data;
  }

  const appFrames = (occurrence: NormalizedOccurrence): NormalizedFrame[] => occurrence.exceptions.at(-1)!.frames.filter((frame) => frame.symbolication);

  it("before the upload the frames say bundle_not_found; after it the next event shows the original functions, files, lines and code, and joins the same issue", async () => {
    const dist = await buildApp("first", "");
    const before = await throwFrom(dist);
    const unmapped = appFrames(before.data);
    expect(unmapped.length).toBeGreaterThan(0);
    expect(new Set(unmapped.map((frame) => frame.symbolication))).toEqual(new Set(["bundle_not_found"]));
    expect(unmapped.map((frame) => frame.function)).not.toContain("formatPrice");

    await cli(["sourcemaps", "upload", "--wait", dist]);
    // The assembly indexed the map: the next event reads a few parts of it, not the whole map.
    const parts = await server.services.db.select().from(sourceMapIndexParts).where(eq(sourceMapIndexParts.organizationId, orgId));
    expect(parts.map((row) => row.part)).toContain(0);

    const after = await throwFrom(dist);
    const mapped = appFrames(after.data);
    const crashing = mapped.at(-1)!;
    expect(crashing).toMatchObject({ symbolication: "mapped", function: "formatPrice", filename: expect.stringMatching(/src\/price\.js$/), lineno: 3 });
    expect(crashing.contextLine).toContain('throw new RangeError("negative price: " + cents);');
    expect(crashing.preContext.join("\n")).toContain("if (cents < 0) {");
    expect(crashing.raw).toMatchObject({ filename: expect.stringMatching(/dist\/main\.js$/), lineno: expect.any(Number), colno: expect.any(Number) });
    expect(mapped.map((frame) => frame.function)).toContain("renderPrice");
    // The minified event opened the issue; the mapped one joined it (its fingerprint was linked on upload).
    expect(after.issueId).toBe(before.issueId);
  });

  it("a rebuild that renames the minified functions and moves their columns still groups into the same issue", async () => {
    const first = await throwFrom(path.join(work, "first/dist"));
    const rebuilt = await buildApp("rebuilt", EXTRA);
    await cli(["sourcemaps", "upload", "--wait", rebuilt]);
    const second = await throwFrom(rebuilt);
    const [a, b] = [appFrames(first.data).at(-1)!, appFrames(second.data).at(-1)!];
    expect(b.symbolication).toBe("mapped");
    // Different minified positions (and usually names), the same original frame, one issue.
    expect([b.raw?.lineno, b.raw?.colno, b.raw?.function]).not.toEqual([a.raw?.lineno, a.raw?.colno, a.raw?.function]);
    expect(b.function).toBe(a.function);
    expect(second.issueId).toBe(first.issueId);
  });
});
