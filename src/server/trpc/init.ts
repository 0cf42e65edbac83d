import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import type { RequestContext } from "../context";
import { AppError } from "../errors";
import { activeOrganizationIdOf, resolveOrgScope } from "../organizations/org-scope";
import { toTRPCError } from "./errors";

const t = initTRPC.context<RequestContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const zodIssues = error.cause instanceof ZodError ? error.cause.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })) : undefined;
    return { ...shape, data: { ...shape.data, stack: undefined, zodIssues } };
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

/** Acts in the session's active organization, after checking the caller's membership. */
export const orgProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  const org = await resolveOrgScope(ctx, activeOrganizationIdOf(ctx.session));
  return next({ ctx: { ...ctx, org } });
});
