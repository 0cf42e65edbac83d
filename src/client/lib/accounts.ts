import { queryOptions } from "@tanstack/react-query";
import { authClient } from "./auth-client";
import { unwrap } from "./api-error";

export const accountKeys = {
  linked: ["auth", "accounts"] as const,
  sessions: ["auth", "sessions"] as const,
};

/** Sign-in methods linked to the user; providerId "credential" is the email-and-password one. */
export function linkedAccountsQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.linked,
    queryFn: async () => (await unwrap(authClient.listAccounts())) ?? [],
  });
}

export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.sessions,
    queryFn: async () => (await unwrap(authClient.listSessions())) ?? [],
  });
}

export const CREDENTIAL_PROVIDER_ID = "credential";
