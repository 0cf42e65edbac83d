import { AlertRuleScope, CreateAlertRuleInput, ListNotificationsInput, UpdateAlertRuleInput } from "../../shared/alert.inputs";
import { AlertNotificationPage, AlertRuleList, AlertRuleView, AlertTestResult, DeletedAlertRule } from "../../shared/alert.views";
import { ProjectIdInput } from "../../shared/project.inputs";
import { PROJECT_PATH, type ApiRoute } from "./api-route";

/** Issue 18: a project's alert rules, their test sends and its notification log. */
export const alertApiRoutes: ApiRoute[] = [
  {
    method: "get",
    path: `${PROJECT_PATH}/alert-rules`,
    summary: "List alert rules",
    tag: "Alerts",
    input: ProjectIdInput,
    output: AlertRuleList,
    response: "The project's rules",
  },
  {
    method: "post",
    path: `${PROJECT_PATH}/alert-rules`,
    summary:
      "Create an alert rule. A new webhook action answers its signing secret once (`actions[].secret`). Webhook deliveries are POSTs of " +
      "`{ type, rule: { id, name }, issue: { id, title, culprit, level, status, url, eventCount, userCount, firstSeen, lastSeen, environment, release }, " +
      'project: { id, name }, test }` signed with the header `Faultline-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the secret>`.',
    tag: "Alerts",
    input: CreateAlertRuleInput,
    output: AlertRuleView,
    response: "The new rule (webhook secrets shown this once)",
    status: 201,
  },
  {
    method: "get",
    path: `${PROJECT_PATH}/alert-rules/:ruleId`,
    summary: "Get an alert rule",
    tag: "Alerts",
    input: AlertRuleScope,
    output: AlertRuleView,
    response: "The rule",
  },
  {
    method: "put",
    path: `${PROJECT_PATH}/alert-rules/:ruleId`,
    summary: "Replace an alert rule (send an action's id, without url, to keep its URL and signing secret)",
    tag: "Alerts",
    input: UpdateAlertRuleInput,
    output: AlertRuleView,
    response: "The updated rule",
  },
  {
    method: "delete",
    path: `${PROJECT_PATH}/alert-rules/:ruleId`,
    summary: "Delete an alert rule",
    tag: "Alerts",
    input: AlertRuleScope,
    output: DeletedAlertRule,
    response: "The deleted rule's id",
  },
  {
    method: "post",
    path: `${PROJECT_PATH}/alert-rules/:ruleId/test`,
    summary: "Send a test notification through every action of the rule now",
    tag: "Alerts",
    input: AlertRuleScope,
    output: AlertTestResult,
    response: "One logged notification per action, with its outcome",
  },
  {
    method: "get",
    path: `${PROJECT_PATH}/notifications`,
    summary: "The notification log, newest first",
    tag: "Alerts",
    input: ListNotificationsInput,
    output: AlertNotificationPage,
    response: "A page of notification attempts",
  },
];
