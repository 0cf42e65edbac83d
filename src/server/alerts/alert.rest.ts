import { Router } from "express";
import { AlertRuleScope, CreateAlertRuleInput, ListNotificationsInput, UpdateAlertRuleInput } from "../../shared/alert.inputs";
import { ProjectIdInput } from "../../shared/project.inputs";
import type { AppServices } from "../context";
import { orgRoute } from "../rest/context";
import { bodyOf, queryOf } from "../rest/input";
import * as log from "./alert-log.service";
import * as rules from "./alert-rule.service";

const PROJECT = "/organizations/:orgId/projects/:projectId";
const RULES = `${PROJECT}/alert-rules`;

/** REST twins of alert.* (tRPC); path ids override anything the body says. */
export function alertRestRoutes(services: AppServices) {
  const routes = Router();
  routes.get(
    RULES,
    orgRoute(services, (ctx, req) => rules.listRules(ctx, ProjectIdInput.parse(req.params).projectId)),
  );
  routes.post(
    RULES,
    orgRoute(services, (ctx, req) => rules.createRule(ctx, CreateAlertRuleInput.parse(bodyOf(req))), 201),
  );
  routes.get(
    `${RULES}/:ruleId`,
    orgRoute(services, (ctx, req) => rules.getRule(ctx, AlertRuleScope.parse(req.params))),
  );
  routes.put(
    `${RULES}/:ruleId`,
    orgRoute(services, (ctx, req) => rules.updateRule(ctx, UpdateAlertRuleInput.parse(bodyOf(req)))),
  );
  routes.delete(
    `${RULES}/:ruleId`,
    orgRoute(services, (ctx, req) => rules.deleteRule(ctx, AlertRuleScope.parse(req.params))),
  );
  routes.post(
    `${RULES}/:ruleId/test`,
    orgRoute(services, (ctx, req) => log.sendTestNotifications(ctx, AlertRuleScope.parse(req.params))),
  );
  routes.get(
    `${PROJECT}/notifications`,
    orgRoute(services, (ctx, req) => log.listNotifications(ctx, ListNotificationsInput.parse(queryOf(req)))),
  );
  return routes;
}
