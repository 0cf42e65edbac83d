import { createTRPCReact, createTRPCQueryUtils } from "@trpc/react-query";
import { httpBatchLink, TRPCClientError } from "@trpc/client";
import type { inferRouterOutputs } from "@trpc/server";
import type { QueryClient } from "@tanstack/react-query";
import superjson from "superjson";
import type { AppRouter } from "@/server/composition/trpc.router";
import type { ValidationIssue } from "@/shared/api-errors";
import { MAX_TRPC_BATCH } from "@/shared/trpc-batch";

export const trpc = createTRPCReact<AppRouter>();

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type ProjectView = RouterOutputs["project"]["get"];
export type AppConfig = RouterOutputs["config"]["get"];

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpBatchLink({
        url: "/api/trpc",
        transformer: superjson,
        maxItems: MAX_TRPC_BATCH,
        fetch: (input, init) => fetch(input, { ...init, credentials: "same-origin" }),
      }),
    ],
  });
}

export type TrpcClient = ReturnType<typeof createTrpcClient>;

/** Imperative helpers (ensureData, invalidate, …) for loaders, which run outside React. */
export function createTrpcUtils(queryClient: QueryClient, client: TrpcClient) {
  return createTRPCQueryUtils({ queryClient, client });
}

export type TrpcUtils = ReturnType<typeof createTrpcUtils>;

export function isTrpcError(error: unknown): error is TRPCClientError<AppRouter> {
  return error instanceof TRPCClientError;
}

/** The tRPC error code (NOT_FOUND, UNAUTHORIZED, …) of a failed call, if it was one. */
export function trpcErrorCode(error: unknown): string | undefined {
  return isTrpcError(error) ? error.data?.code : undefined;
}

/** The `{ path, message }` issues of a VALIDATION_ERROR; empty for any other failure. */
export function validationIssuesOf(error: unknown): ValidationIssue[] {
  if (!isTrpcError(error) || error.data?.appCode !== "VALIDATION_ERROR") return [];
  const issues = error.data.details?.issues;
  return Array.isArray(issues) ? issues : [];
}
