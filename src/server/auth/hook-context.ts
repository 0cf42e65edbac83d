import type { createAuthMiddleware } from "better-auth/api";

/** The context better-auth hands a before/after hook (createAuthMiddleware's argument). */
export type AuthHookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
