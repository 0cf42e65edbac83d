import { alertRouter } from "../alerts/alert.router";
import { configRouter } from "../config/config.router";
import { eventRouter } from "../events/event.router";
import { exceptionRouter } from "../exceptions/exception.router";
import { issueRouter } from "../issues/issue.router";
import { projectRouter } from "../projects/project.router";
import { statsRouter } from "../stats/stats.router";
import { router } from "./init";

export const appRouter = router({
  config: configRouter,
  project: projectRouter,
  issue: issueRouter,
  exception: exceptionRouter,
  stats: statsRouter,
  event: eventRouter,
  alert: alertRouter,
});

export type AppRouter = typeof appRouter;
