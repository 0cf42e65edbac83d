/**
 * THE tenancy table: one entry per tRPC procedure and per /api/v1 route, saying how to call it
 * with another organization's ids and what it must answer. The whole-surface matrix
 * (tenancy-matrix.int.test.ts) and the triage suite (src/server/rest/triage-tenancy.int.test.ts)
 * both read it, and tenancy-table.int.test.ts fails when a procedure or route has no entry — so a
 * new procedure or route is one entry here, and the compiler already asks for it (the procedure
 * table is keyed by every path of AppRouter).
 */
import type { Permission } from "../../src/shared/permissions";
import { utcDay } from "../helpers/triage-seed";
import { massAssigned, type ProcedureInput, type ProcedureOutput, type ProcedurePath } from "../helpers/typed-trpc";

/** One organization's ids, all of one tenant (or, for the row-level probes, one's own project with another's rows). */
export interface TenantIds {
  orgId: string;
  projectId: string;
  issueId: string;
  exceptionId: string;
  keyId: string;
  /** One of the organization's API tokens (only the whole-surface matrix creates one). */
  apiTokenId?: string;
  /** One of the organization's repositories (only the whole-surface matrix registers one). */
  repositoryId?: string;
  /** An alert rule of the project (every project starts with its default rule). */
  ruleId: string;
  /** A conversation with the AI agent, owned by a user of this tenant. */
  conversationId: string;
}

/**
 * - `public`: answers anyone, anonymous included.
 * - `organization`: acts in the caller's active organization whatever the input says; a member
 *   succeeds, a signed-in caller without an organization gets NOT_FOUND.
 * - `project`: names a project; another organization's project is NOT_FOUND for every role.
 * - `conversation`: names a conversation, which only its owner may reach; anyone else's is NOT_FOUND.
 * - `caller`: acts in no organization but names a row of any organization the caller belongs to
 *   (a link's target); a row of an organization they are not a member of is NOT_FOUND, for every role.
 */
export type TenancyScope = "public" | "organization" | "project" | "conversation" | "caller";

export interface ProcedureEntry<P extends ProcedurePath> {
  scope: TenancyScope;
  /** A valid input naming these ids (only the procedure's own fields, plus deliberate mass-assignment). */
  input: (ids: TenantIds) => ProcedureInput<P>;
  /**
   * The grant the call needs (any one of a list), from the one permission table
   * (src/shared/permissions.ts); absent: any member may call it. A caller whose role lacks it gets
   * FORBIDDEN after the tenancy check — the role matrix (test/auth/product-role-matrix.int.test.ts)
   * proves each with custom roles holding everything but it, and exactly it.
   */
  requires?: Permission | Permission[];
  /**
   * Billing exists on the hosted deployment only: on a self-hosted server (where the matrix runs)
   * every signed-in caller gets NOT_FOUND. Its hosted tenancy is src/server/billing/billing-tenancy.int.test.ts.
   */
  hostedOnly?: true;
  /** For organization-scoped writes: the organization the answer landed in, which must be the caller's. */
  landedIn?: (output: ProcedureOutput<P>) => string;
  /**
   * For procedures that take a row id under the project (issue, exception, key): what one's own
   * project with another organization's row answers. Absent when the project is the only id.
   */
  foreignRow?: { error: "NOT_FOUND" } | { data: ProcedureOutput<P> };
  /**
   * For organization-scoped calls that name a row of the organization (an API token): with
   * another organization's row every signed-in caller of A gets NOT_FOUND (members FORBIDDEN
   * first when the role lacks `requires`), as if the row did not exist.
   */
  orgRow?: true;
  /**
   * For organization-scoped calls that need something A's organization does not have in the
   * matrix (an AWS WAF connection; the matrix's server has no AWS client): the error a permitted
   * caller of A gets instead of an answer. The WAF suite (waf-tenancy.int.test.ts) runs them connected.
   */
  ownOrganization?: { error: "NOT_FOUND" | "SERVICE_UNAVAILABLE" };
}

const today = () => utcDay(new Date());
/** Well-formed AWS inputs that reach no AWS: the matrix's server has no AWS client (waf-tenancy.int.test.ts has one). */
export const WAF_KEYS = {
  region: "eu-west-1",
  scope: "REGIONAL",
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
} as const;
export const WAF_IP_SET_ID = "a1b2c3d4-5678-90ab-cdef-EXAMPLE11111";
export const WAF_IP = "203.0.113.77";
const NO_AWS = { error: "SERVICE_UNAVAILABLE" } as const;
const NOT_CONNECTED = { error: "NOT_FOUND" } as const;
/** A valid rule whose webhook points at a loopback port: nothing may ever reach it from a refused call. */
const ALERT_RULE_BODY = {
  name: "intruder rule",
  enabled: true,
  trigger: { type: "new_issue" as const },
  filters: {},
  actions: [{ type: "webhook" as const, url: "http://127.0.0.1:9/steal" }],
  intervalMinutes: 30,
  maxPerHour: 20,
};
const NOT_FOUND = { error: "NOT_FOUND" } as const;
/** A repository id no tenant holds, where the matrix has not registered one. */
const SOME_REPOSITORY = "00000000-0000-4000-8000-0000000000c1";
/** No tenant holds a bundle in the matrix: one's own project answers NOT_FOUND for it as for another's (sourcemaps/ tests the stored case). */
const SOME_BUNDLE = "00000000-0000-4000-8000-0000000000b1";
/** A release version no tenant of the matrix has. */
const SOME_RELEASE = "matrix@1.0.0";
/** No tenant asks for a deletion before the probes: one's own organization answers NOT_FOUND for it as for another's (deletions/ tests the stored case). */
const SOME_DELETION = "00000000-0000-4000-8000-0000000000d1";

/** An organization id no tenant holds. */
const SOME_ORGANIZATION = "00000000-0000-4000-8000-0000000000e1";

export const PROCEDURES: { [P in ProcedurePath]: ProcedureEntry<P> } = {
  "config.get": { scope: "public", input: () => undefined },
  "permission.mine": { scope: "organization", input: () => undefined },
  // The organization holding a link's target, among the caller's own: B's exception (or issue, project, chat) is NOT_FOUND to A.
  "link.locate": { scope: "caller", input: (ids) => ({ kind: "exception", id: ids.exceptionId }) },
  "project.list": { scope: "organization", input: () => undefined },
  "project.overview": { scope: "organization", input: () => undefined },
  "project.get": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "project.create": {
    scope: "organization",
    requires: "project:create",
    // A mass-assigned organizationId is ignored: the project lands in the caller's organization.
    input: (ids) => massAssigned({ name: "intruder", platform: "NODE_JS" }, { organizationId: ids.orgId }),
    landedIn: (project) => project.organizationId,
  },
  "project.rename": { scope: "project", requires: "project:update", input: (ids) => ({ projectId: ids.projectId, name: "pwned" }) },
  "project.delete": { scope: "project", requires: "project:delete", input: (ids) => ({ projectId: ids.projectId }) },
  "project.createKey": { scope: "project", requires: "project:keys", input: (ids) => ({ projectId: ids.projectId, label: "stolen" }) },
  "project.rotateKey": { scope: "project", requires: "project:keys", input: (ids) => ({ projectId: ids.projectId, keyId: ids.keyId }), foreignRow: NOT_FOUND },
  "project.setPrimaryKey": {
    scope: "project",
    requires: "project:keys",
    input: (ids) => ({ projectId: ids.projectId, keyId: ids.keyId }),
    foreignRow: NOT_FOUND,
  },
  "project.revokeKey": { scope: "project", requires: "project:keys", input: (ids) => ({ projectId: ids.projectId, keyId: ids.keyId }), foreignRow: NOT_FOUND },
  "issue.list": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  // Names an issue, not a project: another organization's issue is NOT_FOUND for every role, as for "project".
  "issue.locate": { scope: "project", input: (ids) => ({ issueId: ids.issueId }) },
  "issue.get": { scope: "project", input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId }), foreignRow: NOT_FOUND },
  "issue.setStatus": {
    scope: "project",
    requires: "issue:triage",
    input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId, status: "RESOLVED" }),
    foreignRow: NOT_FOUND,
  },
  "issue.setSeverity": {
    scope: "project",
    requires: "issue:triage",
    input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId, severity: "LOW" }),
    foreignRow: NOT_FOUND,
  },
  "issue.bulkSetStatus": {
    scope: "project",
    requires: "issue:triage",
    input: (ids) => ({ projectId: ids.projectId, issueIds: [ids.issueId], status: "IGNORED" }),
    // A bulk write skips ids that are not the project's rather than failing the whole batch.
    foreignRow: { data: { updated: 0 } },
  },
  "issue.merge": {
    scope: "project",
    requires: "issue:triage",
    // Another organization's issue fails the whole merge, chosen to stay or not: nothing is moved.
    input: (ids) => ({ projectId: ids.projectId, issueIds: [ids.issueId, ids.issueId.replace(/.$/, (c) => (c === "0" ? "1" : "0"))], targetId: ids.issueId }),
    foreignRow: NOT_FOUND,
  },
  "issue.unmerge": {
    scope: "project",
    requires: "issue:triage",
    input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId, fingerprints: ["0".repeat(64)] }),
    foreignRow: NOT_FOUND,
  },
  "issue.fingerprints": { scope: "project", input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId }), foreignRow: NOT_FOUND },
  "issue.releaseChoices": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "issue.similar": { scope: "project", input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId }), foreignRow: NOT_FOUND },
  "exception.list": { scope: "project", input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId }), foreignRow: NOT_FOUND },
  "exception.get": { scope: "project", input: (ids) => ({ projectId: ids.projectId, exceptionId: ids.exceptionId }), foreignRow: NOT_FOUND },
  "stats.daily": {
    scope: "project",
    input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId, from: today(), to: today() }),
    foreignRow: NOT_FOUND,
  },
  "event.list": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "apiToken.list": { scope: "organization", requires: ["apiToken:create", "apiToken:revoke"], input: () => undefined },
  "apiToken.create": {
    scope: "organization",
    requires: "apiToken:create",
    input: (ids) => massAssigned({ name: "intruder", scopes: ["event:read" as const] }, { organizationId: ids.orgId }),
  },
  "apiToken.revoke": {
    scope: "organization",
    requires: "apiToken:revoke",
    orgRow: true,
    input: (ids) => ({ tokenId: ids.apiTokenId ?? "00000000-0000-4000-8000-000000000000" }),
  },
  "billing.plans": { scope: "organization", hostedOnly: true, input: () => undefined },
  "billing.subscriptions": { scope: "organization", hostedOnly: true, input: () => ({ active: true }) },
  "billing.usage": { scope: "organization", hostedOnly: true, input: () => undefined },
  "billing.quota": { scope: "organization", requires: "billing:manage", hostedOnly: true, input: () => undefined },
  "billing.checkout": { scope: "organization", requires: "billing:manage", hostedOnly: true, input: () => ({ plan: "plus" }) },
  "billing.portal": { scope: "organization", requires: "billing:manage", hostedOnly: true, input: () => undefined },
  "integration.list": { scope: "organization", input: () => undefined },
  "waf.setup": { scope: "organization", input: () => undefined },
  "waf.test": { scope: "organization", requires: "integration:connect", input: () => WAF_KEYS, ownOrganization: NO_AWS },
  "waf.connect": {
    scope: "organization",
    requires: "integration:connect",
    input: (ids) => massAssigned(WAF_KEYS, { organizationId: ids.orgId }),
    ownOrganization: NO_AWS,
  },
  "waf.disconnect": { scope: "organization", requires: "integration:connect", input: () => undefined, ownOrganization: NOT_CONNECTED },
  "waf.webAcls": { scope: "organization", input: () => undefined, ownOrganization: NO_AWS },
  "waf.ipSets": { scope: "organization", input: () => undefined, ownOrganization: NO_AWS },
  "waf.sampledRequests": { scope: "organization", input: () => ({ ipSetId: WAF_IP_SET_ID }), ownOrganization: NO_AWS },
  "waf.setBlockList": { scope: "organization", requires: "integration:connect", input: () => ({ ipSetId: WAF_IP_SET_ID }), ownOrganization: NO_AWS },
  // B's project, issue and exception named as the block's origin: not found in A's organization.
  "waf.block": {
    scope: "organization",
    requires: "integration:block",
    input: (ids) => ({ ip: WAF_IP, projectId: ids.projectId, issueId: ids.issueId, exceptionId: ids.exceptionId }),
    ownOrganization: NOT_CONNECTED,
  },
  "waf.unblock": {
    scope: "organization",
    requires: "integration:block",
    input: (ids) => ({ ip: WAF_IP, issueId: ids.issueId }),
    ownOrganization: NOT_CONNECTED,
  },
  "waf.blockStatus": { scope: "organization", input: () => ({ ip: WAF_IP }) },
  "waf.audit": { scope: "organization", input: () => ({ limit: 10 }) },
  "alert.list": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "alert.get": { scope: "project", input: (ids) => ({ projectId: ids.projectId, ruleId: ids.ruleId }), foreignRow: NOT_FOUND },
  "alert.create": { scope: "project", requires: "alert:manage", input: (ids) => ({ projectId: ids.projectId, ...ALERT_RULE_BODY }) },
  "alert.update": {
    scope: "project",
    requires: "alert:manage",
    input: (ids) => ({ projectId: ids.projectId, ruleId: ids.ruleId, ...ALERT_RULE_BODY }),
    foreignRow: NOT_FOUND,
  },
  "alert.delete": { scope: "project", requires: "alert:manage", input: (ids) => ({ projectId: ids.projectId, ruleId: ids.ruleId }), foreignRow: NOT_FOUND },
  "alert.snooze": {
    scope: "project",
    requires: "alert:snooze",
    input: (ids) => ({ projectId: ids.projectId, ruleId: ids.ruleId, minutes: 60 }),
    foreignRow: NOT_FOUND,
  },
  "alert.test": { scope: "project", requires: "alert:manage", input: (ids) => ({ projectId: ids.projectId, ruleId: ids.ruleId }), foreignRow: NOT_FOUND },
  "alert.notifications": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "alert.emailOptOut": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "alert.setEmailOptOut": { scope: "project", input: (ids) => ({ projectId: ids.projectId, optedOut: true }) },
  "conversation.list": { scope: "organization", input: () => undefined },
  "conversation.get": { scope: "conversation", input: (ids) => ({ id: ids.conversationId }) },
  "conversation.rename": { scope: "conversation", input: (ids) => massAssigned({ id: ids.conversationId, title: "pwned" }, { organizationId: ids.orgId }) },
  "conversation.delete": { scope: "conversation", input: (ids) => ({ id: ids.conversationId }) },
  "agent.status": { scope: "organization", input: () => undefined },
  "agent.usage": { scope: "organization", input: () => undefined },
  "sourceMap.list": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "sourceMap.delete": {
    scope: "project",
    requires: "release:manage",
    input: (ids) => ({ projectId: ids.projectId, bundleId: SOME_BUNDLE }),
    foreignRow: NOT_FOUND,
  },
  "sourceMap.deleteRelease": {
    scope: "project",
    requires: "release:manage",
    input: (ids) => ({ projectId: ids.projectId, release: "1.0.0" }),
    // Another organization's release name deletes nothing of one's own project.
    foreignRow: { data: { deleted: 0 } },
  },
  "repository.list": { scope: "organization", input: () => undefined },
  "repository.create": {
    scope: "organization",
    requires: "release:manage",
    // A fresh name per call (several actors may create); a mass-assigned organizationId is ignored.
    input: (ids) => massAssigned({ name: `intruder/repo-${crypto.randomUUID().slice(0, 8)}` }, { organizationId: ids.orgId }),
  },
  "repository.delete": {
    scope: "organization",
    requires: "release:manage",
    orgRow: true,
    input: (ids) => ({ repositoryId: ids.repositoryId ?? SOME_REPOSITORY }),
  },
  "release.list": { scope: "project", input: (ids) => ({ projectId: ids.projectId, status: "all" }) },
  // No tenant holds a release in the matrix: one's own project answers NOT_FOUND for it as for another's (src/server/releases/ tests the stored case).
  "release.detail": { scope: "project", input: (ids) => ({ projectId: ids.projectId, version: SOME_RELEASE }), foreignRow: NOT_FOUND },
  "release.environments": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "release.suspectCommits": { scope: "project", input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId }), foreignRow: NOT_FOUND },
  // Issue 35: storage.
  "storage.summary": { scope: "organization", input: () => undefined },
  "dataSettings.organization": { scope: "organization", input: () => undefined },
  "dataSettings.updateOrganization": { scope: "organization", requires: "organization:update", input: () => ({ scrubDefaults: true }) },
  "dataSettings.project": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  "dataSettings.updateProject": { scope: "project", requires: "organization:update", input: (ids) => ({ projectId: ids.projectId, scrubDefaults: true }) },
  "deletion.list": { scope: "organization", input: () => undefined },
  "deletion.get": { scope: "organization", input: () => ({ deletionId: SOME_DELETION }), ownOrganization: NOT_FOUND },
  "deletion.deleteIssue": {
    scope: "project",
    requires: "issue:delete",
    input: (ids) => ({ projectId: ids.projectId, issueId: ids.issueId }),
    foreignRow: NOT_FOUND,
  },
  "deletion.eraseUserData": { scope: "organization", requires: "organization:update", input: () => ({ email: "nobody@example.com" }) },
  "deletion.projectImpact": { scope: "project", input: (ids) => ({ projectId: ids.projectId }) },
  // Names the organization the confirmation showed; anything but the caller's active organization is NOT_FOUND.
  // An id no tenant holds, so the role matrix's granted call deletes nothing (B's real id: deletions/organization-deletion.int.test.ts).
  "deletion.deleteOrganization": { scope: "organization", requires: "organization:delete", orgRow: true, input: () => ({ organizationId: SOME_ORGANIZATION }) },
  "deletion.organizationImpact": { scope: "organization", requires: "organization:delete", input: () => undefined },
  // The caller's own requests only: a deletion nobody of A asked for is NOT_FOUND (deletions/ tests the stored case).
  "deletion.requested": { scope: "caller", input: () => ({ deletionId: SOME_DELETION }) },
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
  /**
   * Lists what the caller belongs to and acts in no organization (`GET /organizations`): every
   * signed-in caller gets 200 with their own organizations only (none for an outsider), an API
   * token its own organization only.
   */
  callerScoped?: true;
  /** Like ProcedureEntry.foreignRow: one's own organization and project with another organization's row. */
  foreignRow?: { status: 404 } | { status: 200; body: unknown };
  /** Like ProcedureEntry.requires: the grant the route needs (403 without it); absent: any member. */
  requires?: Permission | Permission[];
}

const PROJECTS = "/organizations/:orgId/projects";
const WAF = "/organizations/:orgId/integrations/aws/waf";
const PROJECT = `${PROJECTS}/:projectId`;
const ROW_404 = { status: 404 } as const;

/** Keyed by `${method} ${path}` as rest/route-list.ts lists the v1 router (routeKey). */
export const ROUTES: Record<string, RouteEntry> = {
  "get /openapi.json": { public: true },
  "get /organizations": { callerScoped: true },
  "get /organizations/:orgId": {},
  [`get ${PROJECTS}`]: {},
  [`post ${PROJECTS}`]: { requires: "project:create", body: () => ({ name: "intruder", platform: "NODE_JS" }) },
  [`get ${PROJECT}`]: {},
  [`get ${PROJECT}/issues`]: {},
  [`post ${PROJECT}/issues/bulk-status`]: {
    requires: "issue:triage",
    body: (ids) => ({ issueIds: [ids.issueId], status: "IGNORED" }),
    foreignRow: { status: 200, body: { updated: 0 } },
  },
  [`get ${PROJECT}/issues/:issueId`]: { foreignRow: ROW_404 },
  [`put ${PROJECT}/issues/:issueId/status`]: { requires: "issue:triage", body: () => ({ status: "RESOLVED" }), foreignRow: ROW_404 },
  [`put ${PROJECT}/issues/:issueId/severity`]: { requires: "issue:triage", body: () => ({ severity: "LOW" }), foreignRow: ROW_404 },
  [`post ${PROJECT}/issues/merge`]: {
    requires: "issue:triage",
    body: (ids) => ({ issueIds: [ids.issueId, ids.issueId.replace(/.$/, (c) => (c === "0" ? "1" : "0"))], targetId: ids.issueId }),
    foreignRow: ROW_404,
  },
  [`post ${PROJECT}/issues/:issueId/unmerge`]: { requires: "issue:triage", body: () => ({ fingerprints: ["0".repeat(64)] }), foreignRow: ROW_404 },
  [`get ${PROJECT}/issues/:issueId/fingerprints`]: { foreignRow: ROW_404 },
  [`get ${PROJECT}/issues/:issueId/similar`]: { foreignRow: ROW_404 },
  [`get ${PROJECT}/exceptions`]: { query: (ids) => ({ issueId: ids.issueId }), foreignRow: ROW_404 },
  [`get ${PROJECT}/exceptions/statistics/daily`]: { query: (ids) => ({ from: today(), to: today(), issueId: ids.issueId }), foreignRow: ROW_404 },
  [`get ${PROJECT}/exceptions/:exceptionId`]: { foreignRow: ROW_404 },
  [`get ${PROJECT}/events`]: {},
  "get /organizations/:orgId/api-tokens": { requires: ["apiToken:create", "apiToken:revoke"] },
  "post /organizations/:orgId/api-tokens": { requires: "apiToken:create", body: () => ({ name: "intruder", scopes: ["event:read"] }) },
  "delete /organizations/:orgId/api-tokens/:tokenId": { requires: "apiToken:revoke", body: () => ({}) },
  "get /billing/subscriptions/:orgId": { query: () => ({ active: "true" }) },
  "get /organizations/:orgId/billing/usage": {},
  "post /organizations/:orgId/billing/checkout": { requires: "billing:manage", body: () => ({ plan: "plus" }) },
  "post /organizations/:orgId/billing/portal": { requires: "billing:manage", body: () => ({}) },
  "get /organizations/:orgId/integrations": {},
  [`get ${WAF}`]: {},
  [`put ${WAF}`]: { requires: "integration:connect", body: () => WAF_KEYS },
  [`delete ${WAF}`]: { requires: "integration:connect", body: () => ({}) },
  [`get ${WAF}/web-acls`]: {},
  [`get ${WAF}/ip-sets`]: {},
  [`get ${WAF}/ip-sets/:ipSetId/sampled-requests`]: {},
  [`put ${WAF}/block-list`]: { requires: "integration:connect", body: () => ({ ipSetId: WAF_IP_SET_ID }) },
  [`post ${WAF}/blocks`]: {
    requires: "integration:block",
    body: (ids) => ({ ip: WAF_IP, projectId: ids.projectId, issueId: ids.issueId, exceptionId: ids.exceptionId }),
  },
  [`delete ${WAF}/blocks/:ip`]: { requires: "integration:block", body: () => ({}) },
  [`get ${WAF}/audit`]: {},
  [`get ${PROJECT}/alert-rules`]: {},
  [`post ${PROJECT}/alert-rules`]: { requires: "alert:manage", body: () => ALERT_RULE_BODY },
  [`get ${PROJECT}/alert-rules/:ruleId`]: { foreignRow: ROW_404 },
  [`put ${PROJECT}/alert-rules/:ruleId`]: { requires: "alert:manage", body: () => ALERT_RULE_BODY, foreignRow: ROW_404 },
  [`delete ${PROJECT}/alert-rules/:ruleId`]: { requires: "alert:manage", body: () => ({}), foreignRow: ROW_404 },
  [`post ${PROJECT}/alert-rules/:ruleId/test`]: { requires: "alert:manage", body: () => ({}), foreignRow: ROW_404 },
  [`get ${PROJECT}/notifications`]: {},
  "get /ai/agents/conversations": { sessionScoped: true },
  "get /ai/agents/conversations/:id": {},
  "patch /ai/agents/conversations/:id": { body: () => ({ title: "pwned" }) },
  "delete /ai/agents/conversations/:id": { body: () => ({}) },
  [`get ${PROJECT}/source-maps`]: { query: () => ({ release: "1.0.0" }) },
  [`delete ${PROJECT}/source-maps`]: {
    requires: "release:manage",
    query: () => ({ release: "1.0.0" }),
    body: () => ({}),
    foreignRow: { status: 200, body: { deleted: 0 } },
  },
  [`delete ${PROJECT}/source-maps/:bundleId`]: { requires: "release:manage", body: () => ({}), foreignRow: ROW_404 },
  [`get ${PROJECT}/releases`]: { query: () => ({ status: "all" }) },
  [`get ${PROJECT}/releases/:version`]: { foreignRow: ROW_404 },
  [`get ${PROJECT}/issues/:issueId/suspect-commits`]: { foreignRow: ROW_404 },
  // Issue 35: exports and storage.
  [`get ${PROJECT}/issues/:issueId/export`]: { query: () => ({ format: "markdown", limit: "5" }), foreignRow: ROW_404 },
  [`get ${PROJECT}/issues/export`]: { query: () => ({ format: "csv", status: "OPEN" }) },
  "get /organizations/:orgId/storage": {},
  "get /organizations/:orgId/data-settings": {},
  "put /organizations/:orgId/data-settings": { requires: "organization:update", body: () => ({ scrubDefaults: true }) },
  [`get ${PROJECT}/data-settings`]: {},
  [`put ${PROJECT}/data-settings`]: { requires: "organization:update", body: () => ({ scrubDefaults: true }) },
  [`delete ${PROJECT}`]: { requires: "project:delete", body: () => ({}) },
  [`delete ${PROJECT}/issues/:issueId`]: { requires: "issue:delete", body: () => ({}), foreignRow: ROW_404 },
  "post /organizations/:orgId/user-data/erase": { requires: "organization:update", body: () => ({ email: "nobody@example.com" }) },
  "get /organizations/:orgId/deletions": {},
  "get /organizations/:orgId/deletions/:deletionId": {},
  "delete /organizations/:orgId": { requires: "organization:delete", body: () => ({}) },
  "get /deletions/:deletionId": {},
  "post /ai/agents/:projectId/chat": {
    body: (ids) => ({ id: ids.conversationId, message: { id: "tenancy-probe", role: "user", parts: [{ type: "text", text: "Show me everything" }] } }),
  },
};

/** The route's URL under /api/v1 with `orgId` in the path and the rest of the ids in path and query. */
export function routeUrl(path: string, entry: RouteEntry, orgId: string, ids: TenantIds) {
  const filled = path
    .replace(":ipSetId", WAF_IP_SET_ID)
    .replace(":ip", encodeURIComponent(WAF_IP))
    .replace(":orgId", orgId)
    .replace(":projectId", ids.projectId)
    .replace(":issueId", ids.issueId)
    .replace(":exceptionId", ids.exceptionId)
    .replace(":tokenId", ids.apiTokenId ?? "00000000-0000-4000-8000-000000000000")
    .replace(":ruleId", ids.ruleId)
    .replace(":bundleId", SOME_BUNDLE)
    .replace(":version", encodeURIComponent(SOME_RELEASE))
    .replace(":deletionId", SOME_DELETION)
    .replace(":id", ids.conversationId);
  const query = entry.query ? `?${new URLSearchParams(entry.query(ids))}` : "";
  return `/api/v1${filled}${query}`;
}
