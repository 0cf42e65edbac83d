import { DailyStatsInput } from "../../shared/triage.inputs";
import { DailyCounts } from "../rest/openapi-views";
import { queryOf } from "../rest/input";
import { PROJECT_PATH, type RestRoute } from "../rest/rest-route";
import * as service from "./stats.service";

/** REST twin of stats.daily at the spec's path, under the exceptions (query params passed through). */
export const statsRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: `${PROJECT_PATH}/exceptions/statistics/daily`,
    summary: "Occurrences per UTC day, zero-filled, from..to inclusive (at most 366 days)",
    tag: "Exceptions",
    input: DailyStatsInput,
    output: DailyCounts,
    response: "One count per UTC day",
    access: "organization",
    tokenScope: "event:read",
    handler: (ctx, req) => service.dailyStats(ctx, DailyStatsInput.parse(queryOf(req))),
  },
];
