import { BellOffIcon, PencilIcon, PlusIcon, SendIcon, Trash2Icon } from "lucide-react";
import { usePermissions } from "@/client/lib/use-permissions";
import { trpc, type RouterOutputs } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Checkbox } from "@/client/components/ui/checkbox";
import { Label } from "@/client/components/ui/label";
import { Skeleton } from "@/client/components/ui/skeleton";
import { ENVIRONMENT_LABELS } from "@/shared/environments";
import { AlertRuleDialog } from "./-alert-rule-dialog";

type Rule = RouterOutputs["alert"]["list"][number];

function triggerSummary(trigger: Rule["trigger"]): string {
  switch (trigger.type) {
    case "new_issue":
      return trigger.includeRegressions ? "New issue or regression" : "New issue";
    case "regression":
      return "Regression";
    case "issue_frequency":
      return `An issue seen > ${trigger.count} times in ${trigger.minutes} min`;
    case "event_rate":
      return `Events > ${trigger.count} per ${trigger.minutes} min`;
    case "level":
      return `Issue at ${trigger.level} or above`;
    case "new_issue_after_deploy":
      return `New issue within ${trigger.minutes} min of a deploy`;
  }
}

function filterSummary(filters: Rule["filters"]): string | null {
  const parts = [
    filters.environments?.length ? filters.environments.map((environment) => ENVIRONMENT_LABELS[environment]).join("/") : null,
    filters.minLevel ? `${filters.minLevel}+` : null,
    filters.textContains ? `contains "${filters.textContains}"` : null,
    ...(filters.tags ?? []).map((tag) => `${tag.key}=${tag.value}`),
  ].filter(Boolean);
  return parts.length > 0 ? `only ${parts.join(", ")}` : null;
}

function actionSummary(action: Rule["actions"][number]): string {
  if (action.type === "email") return action.to === "members" ? "Email all members" : action.to === "team" ? "Email a team" : "Email chosen members";
  return `${action.type} → ${action.urlHost ?? "?"}`;
}

/** Project settings → Alerts: the rules (alert:manage edits and sends tests, alert:snooze snoozes, everyone reads), and the personal email opt-out. */
export function AlertRulesCard({ projectId }: { projectId: string }) {
  const { can, refusal } = usePermissions();
  const canManage = can("alert:manage");
  const canSnooze = can("alert:snooze");
  const utils = trpc.useUtils();
  const rules = trpc.alert.list.useQuery({ projectId });
  const optOut = trpc.alert.emailOptOut.useQuery({ projectId });
  const test = useToastMutation(utils.client.alert.test.mutate, {
    refresh: () => utils.alert.notifications.invalidate({ projectId }),
    success: (result) => {
      const failed = result.notifications.filter((entry) => entry.status === "failed");
      if (failed.length > 0) return { kind: "error", message: `Test: ${failed.length} of ${result.notifications.length} failed — ${failed[0].error}` };
      return `Test sent through ${result.notifications.length} action(s)`;
    },
  });
  const refreshRules = () => utils.alert.list.invalidate({ projectId });
  const remove = useToastMutation(utils.client.alert.delete.mutate, { refresh: refreshRules });
  const snooze = useToastMutation(utils.client.alert.snooze.mutate, { refresh: refreshRules });
  const setOptOut = useToastMutation(utils.client.alert.setEmailOptOut.mutate, { refresh: (data) => utils.alert.emailOptOut.setData({ projectId }, data) });

  return (
    <Card data-testid="alert-rules">
      <CardHeader>
        <CardTitle>Alerts</CardTitle>
        <CardDescription>Who hears about new issues, regressions and spikes. {refusal("alert:manage") ? `${refusal("alert:manage")}.` : ""}</CardDescription>
        {canManage ? (
          <CardAction>
            <AlertRuleDialog
              projectId={projectId}
              trigger={
                <Button size="sm" data-testid="new-alert-rule">
                  <PlusIcon /> New rule
                </Button>
              }
            />
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {rules.isPending ? <Skeleton className="h-16" /> : null}
        {rules.error ? <QueryErrorAlert error={rules.error} onRetry={() => void rules.refetch()} /> : null}
        {rules.data?.length === 0 ? <p className="text-sm text-muted-foreground">No alert rules: nobody is notified about this project.</p> : null}
        <ul className="grid gap-3">
          {rules.data?.map((rule) => {
            const snoozed = rule.snoozedUntil && rule.snoozedUntil > new Date();
            return (
              <li key={rule.id} data-testid="alert-rule" className="flex flex-wrap items-center gap-3 rounded-md border p-3">
                <div className="grid flex-1 gap-1">
                  <span className="font-medium">{rule.name}</span>
                  <span className="text-sm text-muted-foreground">
                    {[triggerSummary(rule.trigger), filterSummary(rule.filters), rule.actions.map(actionSummary).join(", ")].filter(Boolean).join(" · ")}
                  </span>
                </div>
                {!rule.enabled ? <Badge variant="secondary">Disabled</Badge> : null}
                {snoozed ? <Badge variant="secondary">Snoozed</Badge> : null}
                {canSnooze ? (
                  <Button size="sm" variant="outline" onClick={() => snooze.mutate({ projectId, ruleId: rule.id, minutes: snoozed ? 0 : 60 })}>
                    <BellOffIcon /> {snoozed ? "Wake" : "Snooze 1 h"}
                  </Button>
                ) : null}
                {canManage ? (
                  <>
                    <AlertRuleDialog
                      projectId={projectId}
                      rule={rule}
                      trigger={
                        <Button size="sm" variant="outline" data-testid="edit-alert-rule">
                          <PencilIcon /> Edit
                        </Button>
                      }
                    />
                    <Button
                      size="sm"
                      variant="outline"
                      data-testid="send-test"
                      disabled={test.isPending}
                      onClick={() => test.mutate({ projectId, ruleId: rule.id })}
                    >
                      <SendIcon /> Send test
                    </Button>
                    <ConfirmDialog
                      title={`Delete the rule ${rule.name}?`}
                      description="Its notification log entries stay."
                      confirmLabel="Delete"
                      destructive
                      onConfirm={() => remove.mutateAsync({ projectId, ruleId: rule.id })}
                      trigger={
                        <Button size="sm" variant="ghost" aria-label="Delete rule">
                          <Trash2Icon />
                        </Button>
                      }
                    />
                  </>
                ) : null}
              </li>
            );
          })}
        </ul>
        <div className="flex items-center gap-2">
          <Checkbox
            id="alert-email-opt-out"
            checked={optOut.data ? !optOut.data.optedOut : true}
            disabled={!optOut.data || setOptOut.isPending}
            onCheckedChange={(checked) => setOptOut.mutate({ projectId, optedOut: checked !== true })}
          />
          <Label htmlFor="alert-email-opt-out">Email me this project's alerts (your personal setting)</Label>
        </div>
      </CardContent>
    </Card>
  );
}
