import express from "express";
import { apiTokenRestRoutes } from "../api-tokens/api-token.rest";
import { billingRestRoutes } from "../billing/billing.rest";
import { alertRestRoutes } from "../alerts/alert.rest";
import { chatRestRoutes } from "../chat/chat.rest";
import { eventRestRoutes } from "../events/event.rest";
import { exceptionRestRoutes } from "../exceptions/exception.rest";
import { issueRestRoutes } from "../issues/issue.rest";
import { wafRestRoutes } from "../integrations/waf/waf.rest";
import { issueGroupingRestRoutes } from "../issues/issue-grouping.rest";
import { projectRestRoutes } from "../projects/project.rest";
import { statsRestRoutes } from "../stats/stats.rest";
import type { AppServices } from "../context";
import { buildOpenApiDocument } from "./openapi";

/** The /api/v1 product API: every adapter over the same services as tRPC, then a JSON 404. */
export function createV1Router(services: AppServices) {
  const v1 = express.Router();
  const openApi = buildOpenApiDocument();
  v1.get("/openapi.json", (_req, res) => {
    res.json(openApi);
  });
  v1.use(projectRestRoutes(services));
  v1.use(issueRestRoutes(services));
  v1.use(issueGroupingRestRoutes(services));
  // Before the exception routes, so "statistics" is never taken for an exception id.
  v1.use(statsRestRoutes(services));
  v1.use(exceptionRestRoutes(services));
  v1.use(eventRestRoutes(services));
  v1.use(apiTokenRestRoutes(services));
  v1.use(billingRestRoutes(services));
  v1.use(wafRestRoutes(services));
  v1.use(alertRestRoutes(services));
  v1.use(chatRestRoutes(services));
  v1.use((req, res) => {
    res.status(404).json({ error: { code: "NOT_FOUND", message: `No route for ${req.method} ${req.baseUrl}${req.path}`, requestId: req.id } });
  });
  return v1;
}
