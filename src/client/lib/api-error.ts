import { isTrpcError, validationIssuesOf } from "./trpc";

/** better-auth client calls resolve to `{ data, error }` instead of throwing. */
export interface AuthClientError {
  message?: string;
  status?: number;
  statusText?: string;
  code?: string;
  /** VALIDATION_ERROR's detail ("[body.name] Please enter your full name"); `message` is the spec's generic one. */
  details?: string;
}

/** "[body.name] Please enter your full name; [body.email] …" → "Please enter your full name. …" */
const fieldMessages = (details: string) =>
  details
    .split("; ")
    .map((part) => part.replace(/^\[[^\]]*\]\s*/, ""))
    .join(". ");

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
    const { message, statusText, status, code, details } = result.error;
    // A form wants to say which field is wrong, not the spec's "Invalid body parameters".
    const shown = code === "VALIDATION_ERROR" && details ? fieldMessages(details) : message;
    throw new AuthRequestError(shown || statusText || "Something went wrong", status, code);
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
