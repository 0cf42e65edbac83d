import type { AlertFilters, AlertTrigger } from "../../shared/alert.inputs";
import type { AlertActionView, AlertRuleView } from "../../shared/alert.views";
import type { AlertActionRow, RuleWithActions } from "./alert-rule.queries";

export interface EmailRecipients {
  to: "members" | "team" | "users";
  teamId?: string;
  userIds?: string[];
}

export function actionView(action: AlertActionRow, secret?: string): AlertActionView {
  const type = action.type as AlertActionView["type"];
  if (type === "email") {
    const recipients = JSON.parse(action.recipients ?? '{"to":"members"}') as EmailRecipients;
    return {
      id: action.id,
      type,
      to: recipients.to,
      ...(recipients.teamId ? { teamId: recipients.teamId } : {}),
      ...(recipients.userIds ? { userIds: recipients.userIds } : {}),
    };
  }
  return { id: action.id, type, ...(action.urlHost ? { urlHost: action.urlHost } : {}), ...(secret ? { secret } : {}) };
}

/** The rule as the API answers it; `secrets` are new webhook signing secrets, shown this once. */
export function ruleView(rule: RuleWithActions, secrets: Map<string, string> = new Map()): AlertRuleView {
  return {
    id: rule.id,
    projectId: rule.projectId,
    name: rule.name,
    enabled: rule.enabled,
    trigger: JSON.parse(rule.trigger) as AlertTrigger,
    filters: JSON.parse(rule.filters) as AlertFilters,
    actions: rule.actions.map((action) => actionView(action, secrets.get(action.id))),
    intervalMinutes: rule.intervalMinutes,
    maxPerHour: rule.maxPerHour,
    snoozedUntil: rule.snoozedUntil,
    createdAt: rule.createdAt,
    updatedAt: rule.updatedAt,
  };
}
