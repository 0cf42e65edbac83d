import { agentRouter } from "../chat/agent.router";
import { conversationRouter } from "../chat/conversation.router";
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
  conversation: conversationRouter,
  agent: agentRouter,
});

export type AppRouter = typeof appRouter;
