/**
 * The tenancy table of the Sentry tool API (/api/0, src/server/sentry-api/sentry-api.routes.ts):
 * one entry per route the router registers, saying what the route names, which token scopes and
 * which grant of the token creator's role it needs, and how to call it successfully.
 * sentry-api-tenancy.int.test.ts fails when a registered route has no entry here, or an entry
 * names no route — so a new /api/0 route is one entry here.
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { ApiTokenScope } from "../../src/shared/api-token.inputs";
import type { Permission } from "../../src/shared/permissions";

/** One organization's names as the Sentry tool API sees them (slugs, numbers, versions). */
export interface SentryTenant {
  orgSlug: string;
  projectSlug: string;
  projectNumber: number;
  /** A release of the project (created by the bundle upload below). */
  release: string;
  /** The SHA-1 of an artifact bundle uploaded (and assembled) for the project and the release. */
  bundleChecksum: string;
}

/**
 * - `token`: names nothing; any valid token is answered about itself.
 * - `organization`: names `{org}`, which must be the token's organization (404 otherwise, as an unknown slug).
 * - `project`: names `{org}` and `{project}` (slug or number), a project of that organization (404 otherwise).
 */
export type SentryApiScope = "token" | "organization" | "project";

export interface SentryApiEntry {
  scope: SentryApiScope;
  /** The token scopes the route accepts, any one of them; absent: any token of the organization. */
  scopes?: readonly ApiTokenScope[];
  /**
   * The grant the token creator's role needs (src/shared/permissions.ts); absent: any member's
   * token may call it. A token acts with its creator's current role: without the grant, 403.
   */
  requires?: Permission;
  /** What a permitted call answers (release creation is an upsert: 201 the first time, 208 after). */
  ok: readonly number[];
  /** The body of a permitted call: JSON, or multipart form data (a fresh one per call). */
  body?: (tenant: SentryTenant) => unknown;
  /**
   * For writes that name projects in the body: the body naming `project` instead of the tenant's
   * own. Another organization's project answers 400 `Invalid project: …`, as Sentry does.
   */
  projectsInBody?: (tenant: SentryTenant, project: string | number) => unknown;
  /**
   * For deletes: the release the route names instead of the tenant's own (which must stay for the
   * other routes). The matrix creates it in the tenant's organization again before each call.
   */
  doomedRelease?: (tenant: SentryTenant) => string;
}

/** A small chunk as sentry-cli uploads it: gzip-compressed, named by the SHA-1 of its bytes. */
export function chunkForm(bytes: Buffer) {
  const form = new FormData();
  form.append("file_gzip", new Blob([new Uint8Array(gzipSync(bytes))]), createHash("sha1").update(bytes).digest("hex"));
  return form;
}

const assemble = (tenant: SentryTenant, project: string | number) => ({
  checksum: tenant.bundleChecksum,
  chunks: [tenant.bundleChecksum],
  projects: [project],
  version: tenant.release,
});

const doomed = (tenant: SentryTenant) => `${tenant.release}-doomed`;
const RELEASE_WRITE = { scopes: ["project:releases"], requires: "release:manage" } as const;
const RELEASE_READ = ["project:releases", "project:read"] as const;

/** Keyed by `method path`, the path as the /api/0 router registers it (route-list.ts's `routeKey`). */
export const SENTRY_API_ROUTES: Record<string, SentryApiEntry> = {
  "get /": { scope: "token", ok: [200] },
  "get /organizations/:org/": { scope: "organization", ok: [200] },
  "get /organizations/:org/projects/": { scope: "organization", ok: [200] },
  // sentry-cli asks for the upload options before any upload: a read, but only for upload tokens.
  "get /organizations/:org/chunk-upload/": { scope: "organization", scopes: ["project:releases"], ok: [200] },
  "post /organizations/:org/chunk-upload/": {
    scope: "organization",
    scopes: ["project:releases"],
    requires: "release:manage",
    ok: [200],
    body: () => chunkForm(Buffer.from("a chunk of the tenancy matrix")),
  },
  "post /organizations/:org/artifactbundle/assemble/": {
    scope: "organization",
    scopes: ["project:releases"],
    requires: "release:manage",
    ok: [200],
    body: (tenant) => assemble(tenant, tenant.projectSlug),
    projectsInBody: assemble,
  },
  "get /organizations/:org/releases/": { scope: "organization", scopes: ["project:releases", "project:read"], ok: [200] },
  "post /organizations/:org/releases/": {
    scope: "organization",
    scopes: ["project:releases"],
    requires: "release:manage",
    ok: [201, 208],
    body: (tenant) => ({ version: tenant.release, projects: [tenant.projectSlug] }),
    projectsInBody: (tenant, project) => ({ version: tenant.release, projects: [project] }),
  },
  "get /organizations/:org/releases/:version/": { scope: "organization", scopes: ["project:releases", "project:read"], ok: [200] },
  "put /organizations/:org/releases/:version/": {
    scope: "organization",
    scopes: ["project:releases"],
    requires: "release:manage",
    ok: [200],
    body: () => ({ dateReleased: "2026-01-02T03:04:05.000Z" }),
    projectsInBody: (_tenant, project) => ({ projects: [project] }),
  },
  "get /projects/:org/:project/releases/": { scope: "project", scopes: ["project:releases", "project:read"], ok: [200] },
  "post /projects/:org/:project/releases/": {
    scope: "project",
    scopes: ["project:releases"],
    requires: "release:manage",
    ok: [201, 208],
    body: (tenant) => ({ version: tenant.release }),
  },
  "get /projects/:org/:project/releases/:version/": { scope: "project", scopes: ["project:releases", "project:read"], ok: [200] },
  "put /projects/:org/:project/releases/:version/": {
    scope: "project",
    scopes: ["project:releases"],
    requires: "release:manage",
    ok: [200],
    body: () => ({ dateReleased: "2026-01-02T03:04:05.000Z" }),
  },
  // Issue 34: the rest of `sentry-cli releases`, `set-commits` and `deploys`, and the repositories commits name.
  "delete /organizations/:org/releases/:version/": { scope: "organization", ...RELEASE_WRITE, ok: [204], body: () => ({}), doomedRelease: doomed },
  "get /organizations/:org/releases/:version/commits/": { scope: "organization", scopes: RELEASE_READ, ok: [200] },
  "get /organizations/:org/releases/:version/previous-with-commits/": { scope: "organization", scopes: RELEASE_READ, ok: [200] },
  "get /organizations/:org/releases/:version/deploys/": { scope: "organization", scopes: RELEASE_READ, ok: [200] },
  "post /organizations/:org/releases/:version/deploys/": {
    scope: "organization",
    ...RELEASE_WRITE,
    ok: [201],
    body: () => ({ environment: "production", name: "matrix" }),
    projectsInBody: (_tenant, project) => ({ environment: "production", projects: [project] }),
  },
  "get /organizations/:org/repos/": { scope: "organization", scopes: RELEASE_READ, ok: [200] },
  // A fresh name per call: a taken name answers 409.
  "post /organizations/:org/repos/": {
    scope: "organization",
    ...RELEASE_WRITE,
    ok: [201],
    body: () => ({ name: `matrix/repo-${crypto.randomUUID().slice(0, 8)}`, provider: "github" }),
  },
  "delete /projects/:org/:project/releases/:version/": { scope: "project", ...RELEASE_WRITE, ok: [204], body: () => ({}), doomedRelease: doomed },
  "get /projects/:org/:project/releases/:version/commits/": { scope: "project", scopes: RELEASE_READ, ok: [200] },
};

/** A route's URL under /api/0 for a tenant, with any of its names replaced (another tenant's, an unknown one). */
export function sentryApiUrl(path: string, tenant: SentryTenant, names: { org?: string; project?: string | number; version?: string } = {}) {
  return `/api/0${path
    .replace(":org", encodeURIComponent(names.org ?? tenant.orgSlug))
    .replace(":project", encodeURIComponent(String(names.project ?? tenant.projectSlug)))
    .replace(":version", encodeURIComponent(names.version ?? tenant.release))}`;
}
