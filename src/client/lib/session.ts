import { useRef } from "react";
import { queryOptions, useQuery, type QueryClient } from "@tanstack/react-query";
import { authClient, type AuthSession } from "./auth-client";
import { unwrap } from "./api-error";

export const SESSION_QUERY_KEY = ["auth", "session"] as const;

/**
 * The session is read once at start (spec §7) and refreshed explicitly after sign-in, sign-out,
 * organization switches and profile changes — never by background polling.
 */
export function sessionQueryOptions() {
  return queryOptions({
    queryKey: SESSION_QUERY_KEY,
    queryFn: async (): Promise<AuthSession | null> => (await unwrap(authClient.getSession())) ?? null,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

/** Re-reads the session from the server and returns it (null when signed out). */
export function refreshSession(queryClient: QueryClient) {
  return queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
}

/** Forgets every cached answer that belonged to the previous user. */
export function clearSessionData(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: (query) => !isSessionQueryKey(query.queryKey) });
  queryClient.setQueryData(SESSION_QUERY_KEY, null);
}

export function useSession() {
  return useQuery(sessionQueryOptions());
}

/** For screens under the authenticated layout, where a session is guaranteed by its beforeLoad. */
export function useRequiredSession(): AuthSession {
  const { data } = useSession();
  // Sign-out clears the session a moment before the redirect to login; keep rendering the last
  // known one meanwhile instead of failing.
  const lastKnown = useRef<AuthSession | null>(null);
  if (data) lastKnown.current = data;
  if (!lastKnown.current) throw new Error("useRequiredSession used outside the authenticated layout");
  return lastKnown.current;
}

export function isSessionQueryKey(queryKey: readonly unknown[]): boolean {
  return queryKey.length === SESSION_QUERY_KEY.length && queryKey.every((part, index) => part === SESSION_QUERY_KEY[index]);
}
