import { DailyStatsInput } from "../../shared/triage.inputs";
import { orgProcedure, router } from "../trpc/init";
import * as service from "./stats.service";

export const statsRouter = router({
  daily: orgProcedure.input(DailyStatsInput).query(({ ctx, input }) => service.dailyStats(ctx, input)),
});
