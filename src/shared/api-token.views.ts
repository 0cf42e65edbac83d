import { z } from "zod";
import { API_TOKEN_SCOPES } from "./api-token.inputs";

/** A token as lists show it: never the secret, only its first characters so people can tell tokens apart. */
export const ApiTokenView = z.object({
  id: z.uuid(),
  name: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  /** `flt_` plus the first 8 characters of the secret. */
  prefix: z.string(),
  /** Null when the creator's user record is gone (the token is deleted with it). */
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.date(),
  lastUsedAt: z.date().nullable(),
  expiresAt: z.date().nullable(),
});
export type ApiTokenView = z.infer<typeof ApiTokenView>;

export const ApiTokenList = z.array(ApiTokenView);

/** The answer to creating a token: the only time the secret is shown. */
export const CreatedApiToken = z.object({ token: ApiTokenView, secret: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

export const RevokedApiToken = z.object({ revoked: z.literal(true) });
