import type { Request, Response } from "express";
import { AppError } from "../errors";
import { resolveMembership, type OrgScope } from "../organizations/membership";
import { createRequestContext, type AppServices, type RequestContext } from "../trpc/context";

export type RestHandler<T> = (ctx: RequestContext & { org: OrgScope }, req: Request) => Promise<T>;

/**
 * Wraps an `/api/v1/organizations/:orgId/...` handler: session required, membership of :orgId
 * checked from the database (a stranger's org id answers 404), errors go to the REST mapper.
 */
export function orgRoute<T>(services: AppServices, handler: RestHandler<T>, successStatus = 200) {
  return async (req: Request, res: Response) => {
    const ctx = await createRequestContext(services, req);
    if (!ctx.session) throw new AppError("UNAUTHORIZED", "Unauthorized");
    const org = await resolveMembership(services.db, ctx.session.user.id, String(req.params.orgId));
    const result = await handler({ ...ctx, org }, req);
    res.status(successStatus).json(result);
  };
}
