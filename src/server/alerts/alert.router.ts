import {
  AlertRuleScope,
  CreateAlertRuleInput,
  ListNotificationsInput,
  SetAlertEmailOptOutInput,
  SnoozeAlertRuleInput,
  UpdateAlertRuleInput,
} from "../../shared/alert.inputs";
import { ProjectIdInput } from "../../shared/project.inputs";
import { orgProcedure, router } from "../trpc/init";
import * as log from "./alert-log.service";
import * as rules from "./alert-rule.service";

/** tRPC twins of the /alert-rules and /notifications REST routes (alert.rest.ts), over the same services. */
export const alertRouter = router({
  list: orgProcedure.input(ProjectIdInput).query(({ ctx, input }) => rules.listRules(ctx, input.projectId)),
  get: orgProcedure.input(AlertRuleScope).query(({ ctx, input }) => rules.getRule(ctx, input)),
  create: orgProcedure.input(CreateAlertRuleInput).mutation(({ ctx, input }) => rules.createRule(ctx, input)),
  update: orgProcedure.input(UpdateAlertRuleInput).mutation(({ ctx, input }) => rules.updateRule(ctx, input)),
  delete: orgProcedure.input(AlertRuleScope).mutation(({ ctx, input }) => rules.deleteRule(ctx, input)),
  snooze: orgProcedure.input(SnoozeAlertRuleInput).mutation(({ ctx, input }) => rules.snoozeRule(ctx, input)),
  test: orgProcedure.input(AlertRuleScope).mutation(({ ctx, input }) => log.sendTestNotifications(ctx, input)),
  notifications: orgProcedure.input(ListNotificationsInput).query(({ ctx, input }) => log.listNotifications(ctx, input)),
  emailOptOut: orgProcedure.input(ProjectIdInput).query(({ ctx, input }) => log.getEmailOptOut(ctx, input.projectId)),
  setEmailOptOut: orgProcedure.input(SetAlertEmailOptOutInput).mutation(({ ctx, input }) => log.setEmailOptOut(ctx, input)),
});
