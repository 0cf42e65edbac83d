import type { IncomingHttpHeaders } from "node:http";
import { fromNodeHeaders } from "better-auth/node";
import type { AlertsModule } from "./alerts/alerts.module";
import type { Auth, AuthSession } from "./auth/auth";
import type { Mailer } from "./auth/mailer";
import type { BillingProvider } from "./billing/billing-provider";
import type { ModelProvider } from "./chat/model-provider";
import type { Db } from "./db/client";
import type { Env } from "./env";
import type { WafIntegration } from "./integrations/waf/waf.module";
import type { KeyRevocations } from "./ingest/project-key.cache";
import type { JobQueue } from "./jobs/job-queue";
import type { Logger } from "./logger";
import type { SecretBox } from "./secrets/secret-box";

/**
 * What every request handler may use, built once in main.ts/createApp and shared by tRPC and
 * REST. Outside systems sit behind narrow interfaces; the optional ones are absent until their
 * feature lands, and on deployments that do not configure them (billing when self-hosted).
 */
export interface AppServices {
  env: Env;
  db: Db;
  auth: Auth;
  logger: Logger;
  /** Always set by createApp; optional like the other slots so partial service sets (route listings) stay valid. */
  mailer?: Mailer;
  modelProvider?: ModelProvider;
  waf?: WafIntegration;
  billing?: BillingProvider;
  jobs?: JobQueue;
  /** Seals third-party URLs and signing secrets (alert actions). */
  secretBox?: SecretBox;
  /** Alert delivery (the "Send test" button); absent where no app runs, e.g. a route listing. */
  alerts?: AlertsModule;
  /** The ingest key cache of this process (absent where no ingest runs, e.g. a route listing). */
  keyRevocations?: KeyRevocations;
}

export interface RequestContext extends AppServices {
  requestId: string;
  headers: Headers;
  session: AuthSession | null;
}

/** The part of a request the context reads (an Express request, or a test's cookie header). */
export interface ContextRequest {
  headers: IncomingHttpHeaders;
  id?: string;
}

/** Resolves the session once per request; tRPC and REST build their context with this. */
export async function createRequestContext(services: AppServices, req: ContextRequest): Promise<RequestContext> {
  const headers = fromNodeHeaders(req.headers);
  const session = await services.auth.api.getSession({ headers });
  return { ...services, requestId: String(req.id ?? ""), headers, session };
}
