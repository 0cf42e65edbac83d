import { ApiTokenIdInput, CreateApiTokenInput } from "../../shared/api-token.inputs";
import { ApiTokenList, CreatedApiToken, RevokedApiToken } from "../../shared/api-token.views";
import { bodyOf } from "../rest/input";
import type { RestRoute } from "../rest/rest-route";
import { createApiToken, listApiTokens, revokeApiToken } from "./api-token.service";

const TOKENS = "/organizations/:orgId/api-tokens";
const tag = "API tokens";

/** REST twins of apiToken.*; none names a token scope, so a token can never mint or revoke tokens. */
export const apiTokenRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: TOKENS,
    summary: "List the organization's API tokens (owners and admins)",
    tag,
    output: ApiTokenList,
    response: "The tokens, newest first, without their secrets",
    access: "organization",
    permission: ["apiToken:create", "apiToken:revoke"],
    handler: (ctx) => listApiTokens(ctx),
  },
  {
    method: "post",
    path: TOKENS,
    summary: "Create an API token (owners and admins); the secret is answered once",
    tag,
    input: CreateApiTokenInput,
    output: CreatedApiToken,
    response: "The token and its secret",
    status: 201,
    access: "organization",
    permission: "apiToken:create",
    handler: (ctx, req) => createApiToken(ctx, CreateApiTokenInput.parse(bodyOf(req))),
  },
  {
    method: "delete",
    path: `${TOKENS}/:tokenId`,
    summary: "Revoke an API token (owners and admins)",
    tag,
    input: ApiTokenIdInput,
    output: RevokedApiToken,
    response: "Confirmation",
    access: "organization",
    permission: "apiToken:revoke",
    handler: (ctx, req) => revokeApiToken(ctx, ApiTokenIdInput.parse(req.params).tokenId),
  },
];
