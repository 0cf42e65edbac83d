import { isTrpcError, validationIssuesOf } from "./trpc";

/** better-auth client calls resolve to `{ data, error }` instead of throwing. */
export interface AuthClientError {
  message?: string;
  status?: number;
  statusText?: string;
  code?: string;
}

export class AuthRequestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = "AuthRequestError";
  }
}

/**
 * Unwraps a better-auth `{ data, error }` result so TanStack Query and try/catch see failures.
 * The server's message is kept verbatim: the spec's error catalogue (§8) is what users read.
 */
export async function unwrap<T>(call: Promise<{ data: T; error: null } | { data: null; error: AuthClientError }>): Promise<T> {
  const result = await call;
  if (result.error) {
    const { message, statusText, status, code } = result.error;
    throw new AuthRequestError(message || statusText || "Something went wrong", status, code);
  }
  return result.data as T;
}

/** The text to show a user for any failed call (auth, tRPC, network). */
export function errorMessage(error: unknown, fallback = "Something went wrong"): string {
  if (isTrpcError(error)) {
    const issues = validationIssuesOf(error);
    if (issues.length) return issues.map((issue) => issue.message).join(". ");
    return error.message || fallback;
  }
  if (error instanceof Error && error.message) {
    if (error.message === "Failed to fetch") return "Could not reach the server. Check your connection and try again.";
    return error.message;
  }
  return fallback;
}
