import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { createRequestContext } from "../../src/server/context";
import { createCallerFactory } from "../../src/server/trpc/init";
import { appRouter, type AppRouter } from "../../src/server/composition/trpc.router";
import type { HttpSession } from "./http-session";
import type { TestServer } from "./test-server";

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

const createCaller = createCallerFactory(appRouter);

/**
 * A typed tRPC caller acting as `session`'s user (anonymous without one), over the real request
 * context: better-auth resolves the session from its cookies, and the membership check and the
 * error mapper run as they do over HTTP. Failures throw a TRPCError whose cause is the AppError.
 * The session is read once, so make a new caller after changing the active organization.
 */
export async function callerFor(server: TestServer, session?: HttpSession) {
  const headers = session ? { cookie: session.cookieHeader() } : {};
  return createCaller(await createRequestContext(server.services, { headers, id: "test-caller" }));
}
