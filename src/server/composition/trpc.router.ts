import { apiTokenRouter } from "../api-tokens/api-token.router";
import { billingRouter } from "../billing/billing.router";
import { alertRouter } from "../alerts/alert.router";
import { agentRouter } from "../chat/agent.router";
import { conversationRouter } from "../chat/conversation.router";
import { configRouter } from "../config/config.router";
import { eventRouter } from "../events/event.router";
import { exceptionRouter } from "../exceptions/exception.router";
import { integrationRouter, wafRouter } from "../integrations/waf/waf.router";
import { issueRouter } from "../issues/issue.router";
import { deletionRouter } from "../deletions/deletion.router";
import { linkRouter } from "../organizations/link.router";
import { permissionRouter } from "../organizations/permission.router";
import { projectRouter } from "../projects/project.router";
import { repositoryRouter } from "../releases/repository.router";
import { releaseRouter } from "../releases/release.router";
import { dataSettingsRouter } from "../data-settings/data-settings.router";
import { sourceMapRouter } from "../sourcemaps/source-map.router";
import { statsRouter } from "../stats/stats.router";
import { storageRouter } from "../storage/storage.router";
import { router } from "../trpc/init";

/**
 * The tRPC app router: every domain's router under its key. It lives in composition/, above the
 * domains, so trpc/ stays infrastructure every domain may import and that imports none of them.
 */
export const appRouter = router({
  config: configRouter,
  permission: permissionRouter,
  link: linkRouter,
  project: projectRouter,
  issue: issueRouter,
  exception: exceptionRouter,
  stats: statsRouter,
  event: eventRouter,
  apiToken: apiTokenRouter,
  billing: billingRouter,
  integration: integrationRouter,
  waf: wafRouter,
  alert: alertRouter,
  conversation: conversationRouter,
  agent: agentRouter,
  sourceMap: sourceMapRouter,
  repository: repositoryRouter,
  release: releaseRouter,
  // Issue 35: storage.
  storage: storageRouter,
  dataSettings: dataSettingsRouter,
  deletion: deletionRouter,
});

export type AppRouter = typeof appRouter;
