import { PlusIcon, XIcon } from "lucide-react";
import { ALERT_CHANNELS, type AlertChannel } from "@/shared/alert.inputs";
import { newActionDraft, type ActionDraft } from "@/client/lib/alert-rule-form";
import { useFullOrganization } from "@/client/lib/use-organization";
import { FormField } from "@/client/components/form-field";
import { Button } from "@/client/components/ui/button";
import { Checkbox } from "@/client/components/ui/checkbox";
import { Input } from "@/client/components/ui/input";
import { Label } from "@/client/components/ui/label";
import { NativeSelect } from "@/client/components/ui/select";

const CHANNEL_LABELS: Record<AlertChannel, string> = {
  email: "Email",
  webhook: "Webhook (signed JSON)",
  slack: "Slack incoming webhook",
  discord: "Discord webhook",
  teams: "Microsoft Teams webhook",
};
const MAX_ACTIONS = 10;

/** Where the rule notifies: one to ten actions, each a channel and its recipients or URL. */
export function ActionFields({ actions, change }: { actions: ActionDraft[]; change: (actions: ActionDraft[]) => void }) {
  const setAction = (index: number, patch: Partial<ActionDraft>) =>
    change(actions.map((action, position) => (position === index ? { ...action, ...patch } : action)));
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium">Notify</legend>
      {actions.map((action, index) => (
        <div key={action.key} className="grid gap-2 rounded-md border p-3" data-testid="rule-action">
          <div className="flex items-center gap-2">
            <NativeSelect
              id={`rule-action-${index}`}
              aria-label={`Action ${index + 1}`}
              value={action.type}
              onChange={(event) => setAction(index, { type: event.target.value as AlertChannel })}
            >
              {ALERT_CHANNELS.map((channel) => (
                <option key={channel} value={channel}>
                  {CHANNEL_LABELS[channel]}
                </option>
              ))}
            </NativeSelect>
            {actions.length > 1 ? (
              <Button
                type="button"
                size="icon"
                variant="ghost"
                aria-label={`Remove action ${index + 1}`}
                onClick={() => change(actions.filter((_action, position) => position !== index))}
              >
                <XIcon />
              </Button>
            ) : null}
          </div>
          {action.type === "email" ? (
            <EmailRecipients action={action} index={index} change={(patch) => setAction(index, patch)} />
          ) : (
            <UrlField action={action} index={index} change={(patch) => setAction(index, patch)} />
          )}
        </div>
      ))}
      {actions.length < MAX_ACTIONS ? (
        <Button type="button" size="sm" variant="outline" className="justify-self-start" onClick={() => change([...actions, newActionDraft()])}>
          <PlusIcon /> Add action
        </Button>
      ) : null}
    </fieldset>
  );
}

interface ActionRowProps {
  action: ActionDraft;
  index: number;
  change: (patch: Partial<ActionDraft>) => void;
}

/** A saved URL action keeps its URL (and a webhook its signing secret) unless a new URL is typed. */
function UrlField({ action, index, change }: ActionRowProps) {
  const keepsSaved = action.savedId !== undefined && action.savedType === action.type;
  return (
    <FormField
      id={`rule-url-${index}`}
      label="URL"
      hint={action.type === "webhook" && !keepsSaved ? "Its signing secret is shown once, after saving." : undefined}
    >
      <Input
        id={`rule-url-${index}`}
        type="url"
        placeholder={keepsSaved ? `${action.savedUrlHost ?? "The saved URL"}/… (leave empty to keep)` : "https://"}
        value={action.url}
        onChange={(event) => change({ url: event.target.value })}
        required={!keepsSaved}
      />
    </FormField>
  );
}

function EmailRecipients({ action, index, change }: ActionRowProps) {
  const organization = useFullOrganization();
  const members = organization.data?.members ?? [];
  const teams = organization.data?.teams ?? [];
  return (
    <FormField id={`rule-email-to-${index}`} label="To">
      <NativeSelect id={`rule-email-to-${index}`} value={action.to} onChange={(event) => change({ to: event.target.value as ActionDraft["to"] })}>
        <option value="members">All members of the organization</option>
        <option value="team">A team</option>
        <option value="users">Chosen members</option>
      </NativeSelect>
      {action.to === "team" ? (
        teams.length === 0 ? (
          <p className="text-sm text-muted-foreground">No teams yet: create one in Settings → Organization.</p>
        ) : (
          <NativeSelect aria-label="Team" id={`rule-email-team-${index}`} value={action.teamId} onChange={(event) => change({ teamId: event.target.value })}>
            <option value="">Choose a team</option>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </NativeSelect>
        )
      ) : null}
      {action.to === "users" ? (
        <div className="grid max-h-40 gap-2 overflow-y-auto" role="group" aria-label="Members">
          {organization.isPending ? <p className="text-sm text-muted-foreground">Loading members…</p> : null}
          {members.map((member) => {
            const id = `rule-email-user-${index}-${member.userId}`;
            return (
              <div key={member.userId} className="flex items-center gap-2">
                <Checkbox
                  id={id}
                  checked={action.userIds.includes(member.userId)}
                  onCheckedChange={(checked) =>
                    change({ userIds: checked === true ? [...action.userIds, member.userId] : action.userIds.filter((userId) => userId !== member.userId) })
                  }
                />
                <Label htmlFor={id} className="font-normal">
                  {member.user.name} <span className="text-muted-foreground">{member.user.email}</span>
                </Label>
              </div>
            );
          })}
        </div>
      ) : null}
    </FormField>
  );
}
