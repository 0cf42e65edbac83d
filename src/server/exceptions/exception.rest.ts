import { Router } from "express";
import { ExceptionScope, ListExceptionsInput } from "../../shared/triage.inputs";
import { orgRoute } from "../rest/context";
import { queryOf } from "../rest/input";
import type { AppServices } from "../context";
import * as service from "./exception.service";

export const EXCEPTIONS = "/organizations/:orgId/projects/:projectId/exceptions";

/**
 * REST twins of exception.* (spec §7). `exceptions/statistics/daily` lives beside these (stats
 * domain); the v1 router mounts it first so "statistics" is never read as an exception id.
 */
export function exceptionRestRoutes(services: AppServices) {
  const routes = Router();
  routes.get(
    EXCEPTIONS,
    orgRoute(services, (ctx, req) => service.listExceptions(ctx, ListExceptionsInput.parse(queryOf(req)))),
  );
  routes.get(
    `${EXCEPTIONS}/:exceptionId`,
    orgRoute(services, (ctx, req) => service.getException(ctx, ExceptionScope.parse(req.params))),
  );
  return routes;
}
