import { AlertRuleScope, CreateAlertRuleInput, ListNotificationsInput, UpdateAlertRuleInput } from "../../shared/alert.inputs";
import { AlertNotificationPage, AlertRuleList, AlertRuleView, AlertTestResult, DeletedAlertRule } from "../../shared/alert.views";
import { ProjectIdInput } from "../../shared/project.inputs";
import { bodyOf, queryOf } from "../rest/input";
import { PROJECT_PATH, type RestRoute } from "../rest/rest-route";
import * as log from "./alert-log.service";
import * as rules from "./alert-rule.service";

const RULES = `${PROJECT_PATH}/alert-rules`;
const tag = "Alerts";

/** REST twins of alert.* (tRPC), issue 18: a project's alert rules, their test sends and its notification log; path ids override anything the body says. */
export const alertRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: RULES,
    summary: "List alert rules",
    tag,
    input: ProjectIdInput,
    output: AlertRuleList,
    response: "The project's rules",
    access: "organization",
    handler: (ctx, req) => rules.listRules(ctx, ProjectIdInput.parse(req.params).projectId),
  },
  {
    method: "post",
    path: RULES,
    summary:
      "Create an alert rule. A new webhook action answers its signing secret once (`actions[].secret`). Webhook deliveries are POSTs of " +
      "`{ type, rule: { id, name }, issue: { id, title, culprit, level, status, url, eventCount, userCount, firstSeen, lastSeen, environment, release }, " +
      'project: { id, name }, test }` signed with the header `Faultline-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the secret>`. ' +
      "A digest (`type: digest`, `issue: null`) adds `suppressedCount` and `issues: [{ id, title, reason, url, eventCount }]`: the alerts the storm guard held back.",
    tag,
    input: CreateAlertRuleInput,
    output: AlertRuleView,
    response: "The new rule (webhook secrets shown this once)",
    status: 201,
    access: "organization",
    permission: "alert:manage",
    handler: (ctx, req) => rules.createRule(ctx, CreateAlertRuleInput.parse(bodyOf(req))),
  },
  {
    method: "get",
    path: `${RULES}/:ruleId`,
    summary: "Get an alert rule",
    tag,
    input: AlertRuleScope,
    output: AlertRuleView,
    response: "The rule",
    access: "organization",
    handler: (ctx, req) => rules.getRule(ctx, AlertRuleScope.parse(req.params)),
  },
  {
    method: "put",
    path: `${RULES}/:ruleId`,
    summary: "Replace an alert rule (send an action's id, without url, to keep its URL and signing secret)",
    tag,
    input: UpdateAlertRuleInput,
    output: AlertRuleView,
    response: "The updated rule",
    access: "organization",
    permission: "alert:manage",
    handler: (ctx, req) => rules.updateRule(ctx, UpdateAlertRuleInput.parse(bodyOf(req))),
  },
  {
    method: "delete",
    path: `${RULES}/:ruleId`,
    summary: "Delete an alert rule",
    tag,
    input: AlertRuleScope,
    output: DeletedAlertRule,
    response: "The deleted rule's id",
    access: "organization",
    permission: "alert:manage",
    handler: (ctx, req) => rules.deleteRule(ctx, AlertRuleScope.parse(req.params)),
  },
  {
    method: "post",
    path: `${RULES}/:ruleId/test`,
    summary: "Send a test notification through every action of the rule now",
    tag,
    input: AlertRuleScope,
    output: AlertTestResult,
    response: "One logged notification per action, with its outcome",
    access: "organization",
    permission: "alert:manage",
    handler: (ctx, req) => log.sendTestNotifications(ctx, AlertRuleScope.parse(req.params)),
  },
  {
    method: "get",
    path: `${PROJECT_PATH}/notifications`,
    summary: "The notification log, newest first",
    tag,
    input: ListNotificationsInput,
    output: AlertNotificationPage,
    response: "A page of notification attempts",
    access: "organization",
    handler: (ctx, req) => log.listNotifications(ctx, ListNotificationsInput.parse(queryOf(req))),
  },
];
