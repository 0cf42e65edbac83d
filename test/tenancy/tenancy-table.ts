/**
 * THE tenancy table: one entry per tRPC procedure and per /api/v1 route, saying how to call it
 * with another organization's ids and what it must answer. The whole-surface matrix
 * (tenancy-matrix.int.test.ts) and the triage suite (src/server/rest/triage-tenancy.int.test.ts)
 * both read it, and tenancy-table.test.ts fails when a procedure or route has no entry — so a
 * new procedure or route is one entry here, and the compiler already asks for it (the procedure
 * table is keyed by every path of AppRouter).
 */
import { utcDay } from "../helpers/triage-seed";
import { massAssigned, type ProcedureInput, type ProcedureOutput, type ProcedurePath } from "../helpers/typed-trpc";

/** One organization's ids, all of one tenant (or, for the row-level probes, one's own project with another's rows). */
export interface TenantIds {
  orgId: string;
  projectId: string;
  issueId: string;
  exceptionId: string;
  keyId: string;
  /** A conversation with the AI agent, owned by a user of this tenant. */
  conversationId: string;
}

/**
 * - `public`: answers anyone, anonymous included.
 * - `organization`: acts in the caller's active organization whatever the input says; a member
 *   succeeds, a signed-in caller without an organization gets NOT_FOUND.
 * - `project`: names a project; another organization's project is NOT_FOUND for every role.
 * - `conversation`: names a conversation, which only its owner may reach; anyone else's is NOT_FOUND.
 */
export type TenancyScope = "public" | "organization" | "project" | "conversation";

export interface ProcedureEntry<P extends ProcedurePath> {
  scope: TenancyScope;
  /** A valid input naming these ids (only the procedure's own fields, plus deliberate mass-assignment). */
  input: (ids: TenantIds) => ProcedureInput<P>;
  /** Only owners and admins may call it: a plain member gets FORBIDDEN (after the tenancy check). */
  managersOnly?: true;
  /** For organization-scoped writes: the organization the answer landed in, which must be the caller's. */
  landedIn?: (output: ProcedureOutput<P>) => string;
  /**
   * For procedures that take a row id under the project (issue, exception, key): what one's own
   * project with another organization's row answers. Absent when the project is the only id.
   */
  foreignRow?: { error: "NOT_FOUND" } | { data: ProcedureOutput<P> };
}

const today = () => utcDay(new Date());
const NOT_FOUND = { error: "NOT_FOUND" } as const;

export const PROCEDURES: { [P in ProcedurePath]: ProcedureEntry<P> } = {
  "config.get": { scope: "public", input: () => undefined },
  "project.list": { scope: "organization", input: () => undefined },
  "project.overview": { scope: "organization", input: () => undefined },
  "project.get": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "project.create": {
    scope: "organization",
    managersOnly: true,
    // A mass-assigned organizationId is ignored: the project lands in the caller's organization.
    input: (ids) => massAssigned({ name: "intruder", platform: "NODE_JS" }, { organizationId: ids.orgId }),
    landedIn: (project) => project.organizationId,
  },
  "project.rename": { scope: "project", input: (ids) => ({ projectId: ids.projectId, name: "pwned" }) },
  "project.delete": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "project.createKey": { scope: "project", input: (ids) => ({ projectId: ids.projectId, label: "stolen" }) },
  "project.rotateKey": { scope: "project", input: (ids) => ({ projectId: ids.projectId, keyId: ids.keyId }), foreignRow: NOT_FOUND },
  "project.revokeKey": { scope: "project", input: (ids) => ({ projectId: ids.projectId, keyId: ids.keyId }), foreignRow: NOT_FOUND },
  "issue.list": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "issue.get": { scope: "project", input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId }), foreignRow: NOT_FOUND },
  "issue.setStatus": {
    scope: "project",
    input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId, status: "RESOLVED" }),
    foreignRow: NOT_FOUND,
  },
  "issue.setSeverity": {
    scope: "project",
    input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId, severity: "LOW" }),
    foreignRow: NOT_FOUND,
  },
  "issue.bulkSetStatus": {
    scope: "project",
    input: (ids) => ({ projectId: ids.projectId, issueIds: [ids.issueId], status: "IGNORED" }),
    // A bulk write skips ids that are not the project's rather than failing the whole batch.
    foreignRow: { data: { updated: 0 } },
  },
  "exception.list": { scope: "project", input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId }), foreignRow: NOT_FOUND },
  "exception.get": { scope: "project", input: (ids) => ({ projectId: ids.projectId, exceptionId: ids.exceptionId }), foreignRow: NOT_FOUND },
  "stats.daily": {
    scope: "project",
    input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId, from: today(), to: today() }),
    foreignRow: NOT_FOUND,
  },
  "event.list": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "conversation.list": { scope: "organization", input: () => undefined },
  "conversation.get": { scope: "conversation", input: (ids) => ({ id: ids.conversationId }) },
  "conversation.rename": { scope: "conversation", input: (ids) => massAssigned({ id: ids.conversationId, title: "pwned" }, { organizationId: ids.orgId }) },
  "conversation.delete": { scope: "conversation", input: (ids) => ({ id: ids.conversationId }) },
  "agent.status": { scope: "organization", input: () => undefined },
  "agent.usage": { scope: "organization", input: () => undefined },
};

/** The entries as a list, typed loosely enough to loop over (each input still matches its own path). */
export const procedureEntries = () => Object.entries(PROCEDURES) as [ProcedurePath, ProcedureEntry<ProcedurePath>][];

export interface RouteEntry {
  /** Answers anyone (no tenancy probe applies). */
  public?: true;
  /** Query parameters naming these ids. */
  query?: (ids: TenantIds) => Record<string, string>;
  /** The JSON body of a write, naming these ids; every non-GET route has one. */
  body?: (ids: TenantIds) => unknown;
  /**
   * Acts in the caller's active organization, with no organization id in the path (the spec's
   * `/ai/agents/conversations`): a member of another organization gets their own data (200).
   */
  sessionScoped?: true;
  /** Like ProcedureEntry.foreignRow: one's own organization and project with another organization's row. */
  foreignRow?: { status: 404 } | { status: 200; body: unknown };
}

const PROJECTS = "/organizations/:orgId/projects";
const PROJECT = `${PROJECTS}/:projectId`;
const ROW_404 = { status: 404 } as const;

/** Keyed by `${method} ${path}` as rest/route-list.ts lists the v1 router (routeKey). */
export const ROUTES: Record<string, RouteEntry> = {
  "get /openapi.json": { public: true },
  [`get ${PROJECTS}`]: {},
  [`post ${PROJECTS}`]: { body: () => ({ name: "intruder", platform: "NODE_JS" }) },
  [`get ${PROJECT}`]: {},
  [`get ${PROJECT}/issues`]: {},
  [`post ${PROJECT}/issues/bulk-status`]: {
    body: (ids) => ({ issueIds: [ids.issueId], status: "IGNORED" }),
    foreignRow: { status: 200, body: { updated: 0 } },
  },
  [`get ${PROJECT}/issues/:issueId`]: { foreignRow: ROW_404 },
  [`put ${PROJECT}/issues/:issueId/status`]: { body: () => ({ status: "RESOLVED" }), foreignRow: ROW_404 },
  [`put ${PROJECT}/issues/:issueId/severity`]: { body: () => ({ severity: "LOW" }), foreignRow: ROW_404 },
  [`get ${PROJECT}/exceptions`]: { query: (ids) => ({ issueId: ids.issueId }), foreignRow: ROW_404 },
  [`get ${PROJECT}/exceptions/statistics/daily`]: { query: (ids) => ({ from: today(), to: today(), issueId: ids.issueId }), foreignRow: ROW_404 },
  [`get ${PROJECT}/exceptions/:exceptionId`]: { foreignRow: ROW_404 },
  [`get ${PROJECT}/events`]: {},
  "get /ai/agents/conversations": { sessionScoped: true },
  "get /ai/agents/conversations/:id": {},
  "patch /ai/agents/conversations/:id": { body: () => ({ title: "pwned" }) },
  "delete /ai/agents/conversations/:id": { body: () => ({}) },
  "post /ai/agents/:projectId/chat": {
    body: (ids) => ({ id: ids.conversationId, message: { id: "tenancy-probe", role: "user", parts: [{ type: "text", text: "Show me everything" }] } }),
  },
};

/** The route's URL under /api/v1 with `orgId` in the path and the rest of the ids in path and query. */
export function routeUrl(path: string, entry: RouteEntry, orgId: string, ids: TenantIds) {
  const filled = path
    .replace(":orgId", orgId)
    .replace(":projectId", ids.projectId)
    .replace(":issueId", ids.issueId)
    .replace(":exceptionId", ids.exceptionId)
    .replace(":id", ids.conversationId);
  const query = entry.query ? `?${new URLSearchParams(entry.query(ids))}` : "";
  return `/api/v1${filled}${query}`;
}
