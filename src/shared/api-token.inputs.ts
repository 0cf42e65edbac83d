import { z } from "zod";
import { boundedText } from "./text.inputs";

/**
 * What an organization API token may do. Reads and writes are separate scopes so an assistant
 * (MCP) or a dashboard script can hold read-only access. `project:releases` is what sentry-cli and
 * the bundler plugins need: source-map uploads and releases through the Sentry tool API (/api/0).
 */
export const API_TOKEN_SCOPES = ["event:read", "event:write", "project:read", "project:write", "project:releases"] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  "event:read": "Read issues, exceptions, events and statistics (also the MCP endpoint)",
  "event:write": "Triage issues: change status and severity",
  "project:read": "Read projects and their client keys",
  "project:write": "Create projects",
  "project:releases": "Upload source maps and create releases (sentry-cli, bundler plugins); delete source maps",
};

/** Expiry choices offered by the form; null means the token lives until revoked. */
export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;

export const CreateApiTokenInput = z.object({
  name: boundedText(64, "Token names are at most 64 characters", { length: 1, message: "Give the token a name" }),
  scopes: z
    .array(z.enum(API_TOKEN_SCOPES))
    .min(1, "Choose at least one scope")
    .max(API_TOKEN_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, "Each scope at most once"),
  expiresInDays: z.number().int().min(1).max(3650).nullable().default(null),
});
export type CreateApiTokenInput = z.input<typeof CreateApiTokenInput>;

export const ApiTokenIdInput = z.object({ tokenId: z.uuid() });
