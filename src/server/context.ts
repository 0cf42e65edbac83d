import type { IncomingHttpHeaders } from "node:http";
import { fromNodeHeaders } from "better-auth/node";
import type { AlertsModule } from "./alerts/alerts.module";
import type { Auth, AuthSession } from "./auth/auth";
import type { Mailer } from "./auth/mailer";
import type { BillingProvider } from "./billing/billing-provider";
import type { ModelProvider } from "./chat/model-provider";
import type { Db } from "./db/client";
import type { ReadReplica } from "./db/read-replica";
import type { Env } from "./env";
import type { WafIntegration } from "./integrations/waf/waf.module";
import type { KeyRevocations } from "./ingest/project-key.cache";
import type { DataSettingsChanges } from "./data-settings/data-settings.cache";
import type { JobQueue } from "./jobs/job-queue";
import type { Logger } from "./logger";
import type { OrgScope } from "./organizations/org-scope";
import type { ProjectRow } from "./projects/project-scope";
import type { IssueActivityVia } from "../shared/triage.views";
import type { SecretBox } from "./secrets/secret-box";

/**
 * What every request handler may use, built once in main.ts/createApp and shared by tRPC and
 * REST. Outside systems sit behind narrow interfaces. Every slot createApp always sets is
 * required; the optional ones are absent on some deployments, as each says.
 */
export interface AppServices {
  env: Env;
  /** The primary: writes, reads inside a write, and every read that must see the latest row. */
  db: Db;
  /**
   * Where reads that tolerate a little lag go (lists, details, statistics of the screens and the
   * API). Here the primary; a request's context (createRequestContext) names the read replica
   * when one is configured, up and current, and the caller wrote nothing within its lag bound.
   */
  readDb: Db;
  /** DATABASE_READ_URL's standby and its health (db/read-replica.ts); absent without one. */
  readReplica?: ReadReplica;
  auth: Auth;
  logger: Logger;
  mailer: Mailer;
  /** Absent while no model provider is configured (AI_* settings): the chat then answers SERVICE_UNAVAILABLE and says what is missing. */
  modelProvider?: ModelProvider;
  /** main.ts always brings one; absent where a caller of createApp brings none (most test servers), and the WAF verbs then answer SERVICE_UNAVAILABLE. */
  waf?: WafIntegration;
  /** Absent on self-hosted deployments (no plans, no Stripe): the billing verbs answer NOT_FOUND. */
  billing?: BillingProvider;
  jobs: JobQueue;
  /** Seals third-party URLs and signing secrets (alert actions). */
  secretBox: SecretBox;
  /** Alert delivery (the "Send test" button). */
  alerts: AlertsModule;
  /** The ingest key cache of this process: told of revoked keys and deleted projects, so ingest refuses them at once. */
  keyRevocations: KeyRevocations;
  /** The ingest data-settings cache of this process: told of changed settings, so the next event is scrubbed by them. */
  dataSettingsChanges: DataSettingsChanges;
}

export interface RequestContext extends AppServices {
  requestId: string;
  headers: Headers;
  session: AuthSession | null;
}

/**
 * The one context every product verb takes: what `orgProcedure` (trpc/init.ts) and the REST
 * wrappers (`orgRoute`, `activeOrgRoute` in rest/context.ts) produce — the services, the request
 * and the caller's organization, checked against their membership or the API token's organization.
 * A verb that needs only a few slots takes a `Pick` of it, so callers without a request (the
 * agent's tools, MCP, background work) can call it too. Adapters pass it through unchanged.
 */
export interface ServiceContext extends RequestContext {
  org: OrgScope;
  /** A project the server already checked in this request (the agent's tools); never client input. */
  checkedProject?: ProjectRow;
  /** Set by the chat for the agent's tools: a change is recorded as the AI agent's, on the caller's approval. */
  via?: IssueActivityVia;
}

/**
 * What a verb whose reads tolerate lag takes beside its Pick: the request's `readDb` when its
 * caller has one (db/read-db.ts readDbOf). Callers without a request (background work, the agent's
 * tools, benchmarks) read the primary.
 */
export type LagTolerantReads = Partial<Pick<ServiceContext, "readDb">>;

/** The part of a request the context reads (an Express request, or a test's cookie header). */
export interface ContextRequest {
  headers: IncomingHttpHeaders;
  id?: string;
  /** The request may write, or its caller wrote recently (http/read-after-write.ts). */
  readFromPrimary?: boolean;
}

/**
 * The Db a request's lag-tolerant reads use, decided once per request: the replica's choice
 * (the standby while it is usable) unless the request may write or its caller just wrote.
 */
export function readDbFor(services: AppServices, req: Pick<ContextRequest, "readFromPrimary">): Db {
  if (!services.readReplica || req.readFromPrimary) return services.db;
  return services.readReplica.readDb();
}

/** Resolves the session once per request; tRPC and REST build their context with this. */
export async function createRequestContext(services: AppServices, req: ContextRequest): Promise<RequestContext> {
  const headers = fromNodeHeaders(req.headers);
  const session = await services.auth.api.getSession({ headers });
  return { ...services, readDb: readDbFor(services, req), requestId: String(req.id ?? ""), headers, session };
}
