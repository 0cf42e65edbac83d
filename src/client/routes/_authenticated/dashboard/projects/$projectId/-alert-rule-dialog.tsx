import { useState, type ReactNode } from "react";
import { Loader2Icon } from "lucide-react";
import { trpc, type RouterOutputs } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { draftFromRule, newRuleDraft, ruleBodyFromDraft, type RuleDraft } from "@/client/lib/alert-rule-form";
import { CopyButton } from "@/client/components/copy-button";
import { FormError } from "@/client/components/form-alert";
import { FormField } from "@/client/components/form-field";
import { Button } from "@/client/components/ui/button";
import { Checkbox } from "@/client/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/client/components/ui/dialog";
import { Input } from "@/client/components/ui/input";
import { Label } from "@/client/components/ui/label";
import { Separator } from "@/client/components/ui/separator";
import { ActionFields } from "./-alert-action-fields";
import { FilterFields, PaceFields, TriggerFields } from "./-alert-rule-fields";

type Rule = RouterOutputs["alert"]["list"][number];

/**
 * Creates a rule, or edits `rule`: trigger, filters, one to ten actions, the storm guard's pace.
 * A new webhook action's signing secret is shown once, after saving.
 */
export function AlertRuleDialog({ projectId, rule, trigger }: { projectId: string; rule?: Rule; trigger: ReactNode }) {
  const utils = trpc.useUtils();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<RuleDraft>(newRuleDraft);
  const [problem, setProblem] = useState<string | null>(null);
  const [secrets, setSecrets] = useState<string[]>([]);
  const saved = {
    refresh: () => utils.alert.list.invalidate({ projectId }),
    success: (result: Rule) => (rule ? `Rule ${result.name} saved` : `Rule ${result.name} created`),
    onSuccess: (result: Rule) => {
      const shown = result.actions.flatMap((action) => (action.secret ? [action.secret] : []));
      if (shown.length > 0) setSecrets(shown);
      else setOpen(false);
    },
    // The dialog keeps the server's refusal next to the fields it is about.
    onError: setProblem,
  };
  const create = useToastMutation(utils.client.alert.create.mutate, saved);
  const update = useToastMutation(utils.client.alert.update.mutate, saved);
  const pending = create.isPending || update.isPending;
  const change = (patch: Partial<RuleDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setProblem(null);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const checked = ruleBodyFromDraft(draft);
    if (!checked.ok) {
      setProblem(checked.message);
      return;
    }
    setProblem(null);
    if (rule) update.mutate({ projectId, ruleId: rule.id, ...checked.body });
    else create.mutate({ projectId, ...checked.body });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        // Every opening starts from the saved rule (or a blank one), never from an abandoned edit.
        if (next) setDraft(rule ? draftFromRule(rule) : newRuleDraft());
        setProblem(null);
        setSecrets([]);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        {secrets.length > 0 ? (
          <>
            <DialogHeader>
              <DialogTitle>Webhook signing secret</DialogTitle>
              <DialogDescription>Shown once. Verify the Faultline-Signature header with it: HMAC-SHA256 of "t.body".</DialogDescription>
            </DialogHeader>
            {secrets.map((secret) => (
              <div key={secret} className="flex items-center gap-2 rounded-md border bg-muted/50 px-3 py-2">
                <code data-testid="webhook-secret" className="flex-1 font-mono text-sm break-all">
                  {secret}
                </code>
                <CopyButton value={secret} label="Secret" />
              </div>
            ))}
            <DialogFooter>
              <Button onClick={() => setOpen(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>{rule ? `Edit “${rule.name}”` : "New alert rule"}</DialogTitle>
              <DialogDescription>When to notify, for which issues, and where.</DialogDescription>
            </DialogHeader>
            <FormError message={problem} />
            <FormField id="rule-name" label="Name">
              <Input id="rule-name" value={draft.name} onChange={(event) => change({ name: event.target.value })} maxLength={100} />
            </FormField>
            <div className="flex items-center gap-2">
              <Checkbox id="rule-enabled" checked={draft.enabled} onCheckedChange={(checked) => change({ enabled: checked === true })} />
              <Label htmlFor="rule-enabled" className="font-normal">
                Enabled
              </Label>
            </div>
            <TriggerFields draft={draft} change={change} />
            <Separator />
            <FilterFields draft={draft} change={change} />
            <Separator />
            <ActionFields actions={draft.actions} change={(actions) => change({ actions })} />
            <PaceFields draft={draft} change={change} />
            <DialogFooter>
              <Button type="submit" disabled={pending} data-testid="save-alert-rule">
                {pending ? <Loader2Icon className="animate-spin" /> : null} {rule ? "Save rule" : "Create rule"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
