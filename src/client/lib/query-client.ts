import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { QUERY_GC_TIME_MS, QUERY_RETRIES, QUERY_RETRY_BASE_MS, QUERY_RETRY_MAX_MS } from "@/shared/constants";
import { isTrpcError } from "./trpc";
import { AuthRequestError } from "./api-error";

/** 4xx answers will not change on retry; only network failures and 5xx are worth retrying. */
function isClientError(error: unknown): boolean {
  if (isTrpcError(error)) {
    const status = error.data?.httpStatus;
    return typeof status === "number" && status >= 400 && status < 500;
  }
  if (error instanceof AuthRequestError) return typeof error.status === "number" && error.status >= 400 && error.status < 500;
  return false;
}

function isUnauthorized(error: unknown): boolean {
  if (isTrpcError(error)) return error.data?.code === "UNAUTHORIZED";
  return error instanceof AuthRequestError && error.status === 401;
}

/**
 * Spec §9: queries retry 3 times with a backoff doubling from 1 s up to 30 s, mutations never
 * retry, unused data is kept 5 minutes. `onUnauthorized` lets the app drop a session that the
 * server no longer accepts (revoked elsewhere, expired) instead of showing errors everywhere.
 */
export function createQueryClient(onUnauthorized: () => void) {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error) => isUnauthorized(error) && onUnauthorized() }),
    mutationCache: new MutationCache({ onError: (error) => isUnauthorized(error) && onUnauthorized() }),
    defaultOptions: {
      queries: {
        gcTime: QUERY_GC_TIME_MS,
        retry: (failureCount, error) => failureCount < QUERY_RETRIES && !isClientError(error),
        retryDelay: (attempt) => Math.min(QUERY_RETRY_BASE_MS * 2 ** attempt, QUERY_RETRY_MAX_MS),
      },
      mutations: { retry: 0 },
    },
  });
}
