import { Router } from "express";
import { ApiTokenIdInput, CreateApiTokenInput } from "../../shared/api-token.inputs";
import type { AppServices } from "../context";
import { orgRoute } from "../rest/context";
import { bodyOf } from "../rest/input";
import { createApiToken, listApiTokens, revokeApiToken } from "./api-token.service";

const TOKENS = "/organizations/:orgId/api-tokens";

/** REST twins of apiToken.*; not in route-scopes.ts, so a token can never mint or revoke tokens. */
export function apiTokenRestRoutes(services: AppServices) {
  const routes = Router();
  routes.get(
    TOKENS,
    orgRoute(services, (ctx) => listApiTokens(ctx)),
  );
  routes.post(
    TOKENS,
    orgRoute(services, (ctx, req) => createApiToken(ctx, CreateApiTokenInput.parse(bodyOf(req))), 201),
  );
  routes.delete(
    `${TOKENS}/:tokenId`,
    orgRoute(services, (ctx, req) => revokeApiToken(ctx, ApiTokenIdInput.parse(req.params).tokenId)),
  );
  return routes;
}
