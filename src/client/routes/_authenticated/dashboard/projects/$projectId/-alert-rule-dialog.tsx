import { useState } from "react";
import { Loader2Icon, PlusIcon } from "lucide-react";
import { toast } from "sonner";
import { trpc } from "@/client/lib/trpc";
import { errorMessage } from "@/client/lib/api-error";
import { CopyButton } from "@/client/components/copy-button";
import { Button } from "@/client/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/client/components/ui/dialog";
import { Input } from "@/client/components/ui/input";
import { Label } from "@/client/components/ui/label";
import { NativeSelect } from "@/client/components/ui/select";
import { ALERT_LEVELS, ALERT_TRIGGER_TYPES, type AlertTriggerType } from "@/shared/alert.inputs";

const TRIGGER_LABELS: Record<AlertTriggerType, string> = {
  new_issue: "A new issue",
  regression: "A resolved issue regresses",
  issue_frequency: "An issue is seen more than N times in T minutes",
  event_rate: "The project's events exceed N per T minutes",
  level: "An issue at a level or above",
};
const ACTION_LABELS = {
  email: "Email all members",
  webhook: "Webhook (signed JSON)",
  slack: "Slack incoming webhook",
  discord: "Discord webhook",
  teams: "Microsoft Teams webhook",
};
type ActionType = keyof typeof ACTION_LABELS;

/** Creates a rule with one action (more actions through the API); a new webhook's signing secret is shown once. */
export function CreateAlertRuleDialog({ projectId }: { projectId: string }) {
  const utils = trpc.useUtils();
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [trigger, setTrigger] = useState<AlertTriggerType>("new_issue");
  const [count, setCount] = useState("100");
  const [minutes, setMinutes] = useState("5");
  const [level, setLevel] = useState<(typeof ALERT_LEVELS)[number]>("error");
  const [actionType, setActionType] = useState<ActionType>("email");
  const [url, setUrl] = useState("");
  const create = trpc.alert.create.useMutation({
    onSuccess: async (rule) => {
      await utils.alert.list.invalidate({ projectId });
      toast.success(`Rule ${rule.name} created`);
      const shown = rule.actions.find((action) => action.secret)?.secret;
      if (shown) setSecret(shown);
      else setOpen(false);
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
  const frequency = trigger === "issue_frequency" || trigger === "event_rate";

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    create.mutate({
      projectId,
      name,
      enabled: true,
      filters: {},
      intervalMinutes: 30,
      maxPerHour: 20,
      trigger: { type: trigger, ...(frequency ? { count: Number(count), minutes: Number(minutes) } : {}), ...(trigger === "level" ? { level } : {}) },
      actions: [actionType === "email" ? { type: "email", to: "members" } : { type: actionType, url }],
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setSecret(null);
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" data-testid="new-alert-rule">
          <PlusIcon /> New rule
        </Button>
      </DialogTrigger>
      <DialogContent>
        {secret ? (
          <>
            <DialogHeader>
              <DialogTitle>Webhook signing secret</DialogTitle>
              <DialogDescription>Shown once. Verify the Faultline-Signature header with it: HMAC-SHA256 of "t.body".</DialogDescription>
            </DialogHeader>
            <div className="flex items-center gap-2 rounded-md border bg-muted/50 px-3 py-2">
              <code data-testid="webhook-secret" className="flex-1 font-mono text-sm break-all">
                {secret}
              </code>
              <CopyButton value={secret} label="Secret" />
            </div>
            <DialogFooter>
              <Button onClick={() => setOpen(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={submit} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>New alert rule</DialogTitle>
              <DialogDescription>When to notify, and where. Each issue alerts a rule at most once per 30 minutes, 20 per hour at most.</DialogDescription>
            </DialogHeader>
            <div className="grid gap-2">
              <Label htmlFor="rule-name">Name</Label>
              <Input id="rule-name" value={name} onChange={(event) => setName(event.target.value)} maxLength={100} required />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="rule-trigger">When</Label>
              <NativeSelect id="rule-trigger" value={trigger} onChange={(event) => setTrigger(event.target.value as AlertTriggerType)}>
                {ALERT_TRIGGER_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {TRIGGER_LABELS[type]}
                  </option>
                ))}
              </NativeSelect>
            </div>
            {frequency ? (
              <div className="grid grid-cols-2 gap-2">
                <div className="grid gap-2">
                  <Label htmlFor="rule-count">More than (events)</Label>
                  <Input id="rule-count" type="number" min={1} value={count} onChange={(event) => setCount(event.target.value)} />
                </div>
                <div className="grid gap-2">
                  <Label htmlFor="rule-minutes">In minutes (1–60)</Label>
                  <Input id="rule-minutes" type="number" min={1} max={60} value={minutes} onChange={(event) => setMinutes(event.target.value)} />
                </div>
              </div>
            ) : null}
            {trigger === "level" ? (
              <div className="grid gap-2">
                <Label htmlFor="rule-level">Level at least</Label>
                <NativeSelect id="rule-level" value={level} onChange={(event) => setLevel(event.target.value as (typeof ALERT_LEVELS)[number])}>
                  {ALERT_LEVELS.map((value) => (
                    <option key={value}>{value}</option>
                  ))}
                </NativeSelect>
              </div>
            ) : null}
            <div className="grid gap-2">
              <Label htmlFor="rule-action">Notify</Label>
              <NativeSelect id="rule-action" value={actionType} onChange={(event) => setActionType(event.target.value as ActionType)}>
                {Object.entries(ACTION_LABELS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </NativeSelect>
            </div>
            {actionType !== "email" ? (
              <div className="grid gap-2">
                <Label htmlFor="rule-url">URL</Label>
                <Input id="rule-url" type="url" placeholder="https://" value={url} onChange={(event) => setUrl(event.target.value)} required />
              </div>
            ) : null}
            <DialogFooter>
              <Button type="submit" disabled={create.isPending} data-testid="create-alert-rule">
                {create.isPending ? <Loader2Icon className="animate-spin" /> : null} Create rule
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
