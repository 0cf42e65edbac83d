import { Router } from "express";
import { ListEventsInput } from "../../shared/triage.inputs";
import { orgRoute } from "../rest/context";
import { queryOf } from "../rest/input";
import type { AppServices } from "../context";
import * as service from "./event.service";

/** REST twin of event.list. */
export function eventRestRoutes(services: AppServices) {
  const routes = Router();
  routes.get(
    "/organizations/:orgId/projects/:projectId/events",
    orgRoute(services, (ctx, req) => service.listEvents(ctx, ListEventsInput.parse(queryOf(req)))),
  );
  return routes;
}
