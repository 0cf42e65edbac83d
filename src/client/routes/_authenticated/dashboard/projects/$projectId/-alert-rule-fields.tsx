import { PlusIcon, XIcon } from "lucide-react";
import { ALERT_LEVELS, ALERT_TRIGGER_TYPES, paceInWords, type AlertLevel, type AlertTriggerType } from "@/shared/alert.inputs";
import { ENVIRONMENT_LABELS, ENVIRONMENTS } from "@/shared/environments";
import type { RuleDraft } from "@/client/lib/alert-rule-form";
import { FormField } from "@/client/components/form-field";
import { Button } from "@/client/components/ui/button";
import { Checkbox } from "@/client/components/ui/checkbox";
import { Input } from "@/client/components/ui/input";
import { Label } from "@/client/components/ui/label";
import { NativeSelect } from "@/client/components/ui/select";

export interface DraftFieldsProps {
  draft: RuleDraft;
  change: (patch: Partial<RuleDraft>) => void;
}

const TRIGGER_LABELS: Record<AlertTriggerType, string> = {
  new_issue: "A new issue",
  regression: "A resolved issue regresses",
  issue_frequency: "An issue is seen more than N times in T minutes",
  event_rate: "The project's events exceed N per T minutes",
  level: "An issue at a level or above",
  new_issue_after_deploy: "A new issue within N minutes after a deploy",
};

const MAX_TAG_FILTERS = 10;

/** When the rule fires: the trigger and its numbers. */
export function TriggerFields({ draft, change }: DraftFieldsProps) {
  const frequency = draft.trigger === "issue_frequency" || draft.trigger === "event_rate";
  return (
    <fieldset className="grid gap-3">
      <Label htmlFor="rule-trigger">When</Label>
      <NativeSelect id="rule-trigger" value={draft.trigger} onChange={(event) => change({ trigger: event.target.value as AlertTriggerType })}>
        {ALERT_TRIGGER_TYPES.map((type) => (
          <option key={type} value={type}>
            {TRIGGER_LABELS[type]}
          </option>
        ))}
      </NativeSelect>
      {draft.trigger === "new_issue" ? (
        <div className="flex items-center gap-2">
          <Checkbox
            id="rule-include-regressions"
            checked={draft.includeRegressions}
            onCheckedChange={(checked) => change({ includeRegressions: checked === true })}
          />
          <Label htmlFor="rule-include-regressions" className="font-normal">
            Also when a resolved issue regresses
          </Label>
        </div>
      ) : null}
      {frequency ? (
        <div className="grid grid-cols-2 gap-2">
          <NumberField id="rule-count" label="More than (events)" min={1} value={draft.count} change={(count) => change({ count })} />
          <NumberField id="rule-minutes" label="In minutes (1–60)" min={1} max={60} value={draft.minutes} change={(minutes) => change({ minutes })} />
        </div>
      ) : null}
      {draft.trigger === "new_issue_after_deploy" ? (
        <NumberField
          id="rule-deploy-minutes"
          label="Minutes after a deploy of one of the project's releases (1–60)"
          min={1}
          max={60}
          value={draft.minutes}
          change={(minutes) => change({ minutes })}
        />
      ) : null}
      {draft.trigger === "level" ? (
        <FormField id="rule-level" label="Level at least">
          <NativeSelect id="rule-level" value={draft.level} onChange={(event) => change({ level: event.target.value as AlertLevel })}>
            {ALERT_LEVELS.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </NativeSelect>
        </FormField>
      ) : null}
    </fieldset>
  );
}

/** Which issues it fires for: environments, a minimum level, text in the title or culprit, tags. */
export function FilterFields({ draft, change }: DraftFieldsProps) {
  const setTag = (index: number, patch: Partial<RuleDraft["tags"][number]>) =>
    change({ tags: draft.tags.map((tag, position) => (position === index ? { ...tag, ...patch } : tag)) });
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium">Only for issues (optional)</legend>
      <div className="flex flex-wrap items-center gap-4" role="group" aria-label="Environments">
        {ENVIRONMENTS.map((environment) => (
          <div key={environment} className="flex items-center gap-2">
            <Checkbox
              id={`rule-environment-${environment}`}
              checked={draft.environments.includes(environment)}
              onCheckedChange={(checked) =>
                change({
                  environments: checked === true ? [...draft.environments, environment] : draft.environments.filter((chosen) => chosen !== environment),
                })
              }
            />
            <Label htmlFor={`rule-environment-${environment}`} className="font-normal">
              {ENVIRONMENT_LABELS[environment]}
            </Label>
          </div>
        ))}
        <span className="text-xs text-muted-foreground">None checked: every environment.</span>
      </div>
      <div className="grid grid-cols-2 gap-2">
        <FormField id="rule-min-level" label="Level at least">
          <NativeSelect id="rule-min-level" value={draft.minLevel} onChange={(event) => change({ minLevel: event.target.value as AlertLevel | "" })}>
            <option value="">Any level</option>
            {ALERT_LEVELS.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id="rule-text" label="Title or culprit contains">
          <Input id="rule-text" value={draft.textContains} maxLength={200} onChange={(event) => change({ textContains: event.target.value })} />
        </FormField>
      </div>
      {draft.tags.map((tag, index) => (
        <div key={index} className="flex items-center gap-2" data-testid="rule-tag-filter">
          <Input aria-label="Tag" placeholder="tag" value={tag.key} maxLength={200} onChange={(event) => setTag(index, { key: event.target.value })} />
          <span className="text-muted-foreground">=</span>
          <Input aria-label="Value" placeholder="value" value={tag.value} maxLength={200} onChange={(event) => setTag(index, { value: event.target.value })} />
          <Button
            type="button"
            size="icon"
            variant="ghost"
            aria-label="Remove tag filter"
            onClick={() => change({ tags: draft.tags.filter((_tag, position) => position !== index) })}
          >
            <XIcon />
          </Button>
        </div>
      ))}
      {draft.tags.length < MAX_TAG_FILTERS ? (
        <Button
          type="button"
          size="sm"
          variant="outline"
          className="justify-self-start"
          onClick={() => change({ tags: [...draft.tags, { key: "", value: "" }] })}
        >
          <PlusIcon /> Tag equals…
        </Button>
      ) : null}
    </fieldset>
  );
}

const PACE_FIELDS = [
  { key: "intervalMinutes", id: "rule-interval", label: "At most once per issue every (minutes)", max: 1440 },
  { key: "maxPerHour", id: "rule-max-per-hour", label: "At most per hour, then a digest", max: 1000 },
] as const;

/** The storm guard's two settings, and the limits they make in words (with the typed numbers). */
export function PaceFields({ draft, change }: DraftFieldsProps) {
  const perHour = Number(draft.maxPerHour);
  const valid = draft.maxPerHour.trim() !== "" && Number.isInteger(perHour) && perHour >= 1 && perHour <= 1000;
  return (
    <div className="grid gap-2">
      <div className="grid grid-cols-2 gap-2">
        {PACE_FIELDS.map(({ key, id, label, max }) => (
          <NumberField key={key} id={id} label={label} min={1} max={max} value={draft[key]} change={(value) => change({ [key]: value })} />
        ))}
      </div>
      {valid ? (
        <p className="text-xs text-muted-foreground" data-testid="rule-pace">
          {sentence(paceInWords(perHour))}. A regression is always sent on its own (at most {perHour} per hour).
        </p>
      ) : null}
    </div>
  );
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A labelled number input holding its text as typed (the rule body's checks judge it on save). */
function NumberField({
  id,
  label,
  value,
  min,
  max,
  change,
}: {
  id: string;
  label: string;
  value: string;
  min: number;
  max?: number;
  change: (value: string) => void;
}) {
  return (
    <FormField id={id} label={label}>
      <Input id={id} type="number" min={min} max={max} value={value} onChange={(event) => change(event.target.value)} />
    </FormField>
  );
}
