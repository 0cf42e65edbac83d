import type { Request } from "express";
import { fromNodeHeaders } from "better-auth/node";
import type { Auth, AuthSession } from "../auth/auth";
import type { Db } from "../db/client";
import type { Env } from "../env";
import type { KeyRevocations } from "../ingest/project-key.cache";
import type { Logger } from "../logger";

export interface AppServices {
  env: Env;
  db: Db;
  auth: Auth;
  logger: Logger;
  /** The ingest key cache of this process (absent where no ingest runs, e.g. a route listing). */
  keyRevocations?: KeyRevocations;
}

export interface RequestContext extends AppServices {
  requestId: string;
  headers: Headers;
  session: AuthSession | null;
}

/** Resolves the session once per request; tRPC and REST build their context with this. */
export async function createRequestContext(services: AppServices, req: Request): Promise<RequestContext> {
  const headers = fromNodeHeaders(req.headers);
  const session = await services.auth.api.getSession({ headers });
  return { ...services, requestId: String(req.id ?? ""), headers, session };
}
