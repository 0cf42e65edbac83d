import { configRouter } from "../config/config.router";
import { projectRouter } from "../projects/project.router";
import { router } from "./init";

export const appRouter = router({
  config: configRouter,
  project: projectRouter,
});

export type AppRouter = typeof appRouter;
