import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import type { RequestContext, ServiceContext } from "../context";
import { AppError } from "../errors";
import { activeOrganizationIdOf, resolveOrgScope } from "../organizations/org-scope";
import { toTRPCError } from "./errors";

const t = initTRPC.context<RequestContext>().create({
  transformer: superjson,
  /**
   * `data.appCode` is the domain code REST puts in `error.code` (VALIDATION_ERROR, PAYMENT_REQUIRED,
   * …), and `data.details` the same details, e.g. the `{ path, message }` issues of a validation error.
   */
  errorFormatter({ shape, error }) {
    const appError = error.cause instanceof AppError ? error.cause : undefined;
    return { ...shape, data: { ...shape.data, stack: undefined, appCode: appError?.code ?? shape.data.code, details: appError?.details } };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Maps domain errors once for every procedure; unknown errors become a generic 500. */
const errorMapping = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (!result.ok) {
    const mapped = toTRPCError(result.error);
    if (mapped.code === "INTERNAL_SERVER_ERROR")
      ctx.logger.error("procedure failed", { path, requestId: ctx.requestId, err: result.error.cause ?? result.error });
    return { ...result, error: mapped };
  }
  return result;
});

export const publicProcedure = t.procedure.use(errorMapping);

/** Narrows the context so handlers read `ctx.user` without non-null assertions. */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new AppError("UNAUTHORIZED", "Unauthorized");
  return next({ ctx: { ...ctx, session: ctx.session, user: ctx.session.user, authSession: ctx.session.session } });
});

/**
 * Acts in the session's active organization, after checking the caller's membership. Its context
 * is a ServiceContext (context.ts), which procedures pass to their verb unchanged.
 */
export const orgProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  const org = await resolveOrgScope(ctx, activeOrganizationIdOf(ctx.session));
  return next({ ctx: { ...ctx, org } satisfies ServiceContext });
});
