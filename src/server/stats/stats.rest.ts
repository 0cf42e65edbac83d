import { Router } from "express";
import { DailyStatsInput } from "../../shared/triage.inputs";
import { EXCEPTIONS } from "../exceptions/exception.rest";
import { orgRoute } from "../rest/context";
import { queryOf } from "../rest/input";
import type { AppServices } from "../context";
import * as service from "./stats.service";

/** REST twin of stats.daily at the spec's path, `.../exceptions/statistics/daily` (query params passed through). */
export function statsRestRoutes(services: AppServices) {
  const routes = Router();
  routes.get(
    `${EXCEPTIONS}/statistics/daily`,
    orgRoute(services, (ctx, req) => service.dailyStats(ctx, DailyStatsInput.parse(queryOf(req)))),
  );
  return routes;
}
