import { useState, type ReactNode } from "react";
import { PlusIcon, Trash2Icon } from "lucide-react";
import { Button } from "@/client/components/ui/button";
import { Checkbox } from "@/client/components/ui/checkbox";
import { Input } from "@/client/components/ui/input";
import { Label } from "@/client/components/ui/label";
import { NativeSelect } from "@/client/components/ui/select";
import { SCRUB_METHODS, SCRUB_RULE_TYPES, type ScrubMethod, type ScrubRuleType } from "@/shared/data-settings.inputs";
import type { DataSettingsLayer, DataSettingsValues } from "@/shared/data-settings.views";
import { RetentionField, retentionLayerDays, type RetentionDraft, type RetentionShown } from "./retention-field";

/** The scrubbing settings, each overridable on its own; retention has its own field (retention-field.tsx). */
export type SettingKey = Exclude<keyof DataSettingsValues, "retentionDays">;
type Rule = DataSettingsValues["rules"][number];

const TYPE_LABELS: Record<ScrubRuleType, string> = {
  creditcard: "Credit card numbers",
  email: "Email addresses",
  ip: "IP addresses",
  iban: "IBANs",
  uuid: "UUIDs",
  password: "Values of password fields",
  pattern: "Custom pattern",
};
const METHOD_LABELS: Record<ScrubMethod, string> = { mask: "Mask (****)", remove: "Remove ([Filtered])", hash: "Hash", replace: "Replace with…" };

/**
 * What a settings card edits: the values shown, and for a project which of them it overrides
 * (`inherited` holds the organization's values; a field not overridden shows those, read-only).
 */
export interface EditorState {
  values: DataSettingsValues;
  overridden?: Record<SettingKey, boolean>;
  /** The layer's own days or, unchosen, the default's (organization) or the organization's (project). */
  retention: RetentionDraft;
}

/**
 * The layer a PUT sends: every scrubbing field (organization), or only the overridden ones, null
 * for the rest (project); retention only when the layer chooses its days. An error when the days
 * typed are no whole number in range.
 */
export function toLayer(state: EditorState): { layer: DataSettingsLayer; error?: undefined } | { error: string } {
  const pick = <K extends SettingKey>(key: K) => (state.overridden && !state.overridden[key] ? null : state.values[key]);
  const retention = retentionLayerDays(state.retention);
  if (retention.error !== undefined) return { error: retention.error };
  const layer = {
    retentionDays: retention.days,
    scrubDefaults: pick("scrubDefaults"),
    storeIpAddresses: pick("storeIpAddresses"),
    sensitiveFields: pick("sensitiveFields"),
    safeFields: pick("safeFields"),
    rules: pick("rules"),
  };
  return { layer };
}

interface Props {
  state: EditorState;
  /** The organization's values, shown where a project does not override. */
  inherited?: DataSettingsValues;
  retention: RetentionShown;
  onChange: (state: EditorState) => void;
  disabled: boolean;
}

/** The data settings form shared by the organization's card and a project's. */
export function DataSettingsEditor({ state, inherited, retention, onChange, disabled }: Props) {
  const shown = (key: SettingKey) => (state.overridden && !state.overridden[key] && inherited ? inherited[key] : state.values[key]);
  const locked = (key: SettingKey) => disabled || Boolean(state.overridden && !state.overridden[key]);
  const set = <K extends SettingKey>(key: K, value: DataSettingsValues[K]) => onChange({ ...state, values: { ...state.values, [key]: value } });
  const override = (key: SettingKey) =>
    state.overridden ? (
      <label className="flex items-center gap-2 text-xs text-muted-foreground">
        <Checkbox
          data-testid={`override-${key}`}
          checked={state.overridden[key]}
          disabled={disabled}
          onCheckedChange={(checked) =>
            onChange({
              ...state,
              values: checked === true && inherited ? { ...state.values, [key]: inherited[key] } : state.values,
              overridden: { ...state.overridden!, [key]: checked === true },
            })
          }
        />
        Override the organization
      </label>
    ) : null;

  return (
    <div className="grid gap-6">
      <RetentionField draft={state.retention} shown={retention} onChange={(draft) => onChange({ ...state, retention: draft })} disabled={disabled} />
      <Section title="Default scrubbing" override={override("scrubDefaults")}>
        <Toggle
          id="scrub-defaults"
          checked={shown("scrubDefaults") as boolean}
          disabled={locked("scrubDefaults")}
          onChange={(checked) => set("scrubDefaults", checked)}
          label="Scrub passwords, secrets, tokens, cookies, authorization values and credit card numbers"
          hint="The sensitive names Sentry's default scrubber uses (password, secret, passwd, api_key, auth, credentials, token, session, cookie, …) and Luhn-checked card numbers become [Filtered]."
        />
      </Section>
      <Section title="IP addresses" override={override("storeIpAddresses")}>
        <Toggle
          id="store-ip-addresses"
          checked={shown("storeIpAddresses") as boolean}
          disabled={locked("storeIpAddresses")}
          onChange={(checked) => set("storeIpAddresses", checked)}
          label="Store IP addresses"
          hint="Off: the user's and the request's address ({{auto}} included), forwarding headers and any IP in a text are dropped before storing."
        />
      </Section>
      <Section title="Sensitive fields" override={override("sensitiveFields")}>
        <FieldList
          id="sensitive-fields"
          names={shown("sensitiveFields") as string[]}
          disabled={locked("sensitiveFields")}
          onChange={(names) => set("sensitiveFields", names)}
          hint="Values under keys containing one of these names (any case) become [Filtered]."
        />
      </Section>
      <Section title="Safe fields" override={override("safeFields")}>
        <FieldList
          id="safe-fields"
          names={shown("safeFields") as string[]}
          disabled={locked("safeFields")}
          onChange={(names) => set("safeFields", names)}
          hint="Keys with exactly these names (any case) are never scrubbed, whatever they hold."
        />
      </Section>
      <Section title="Rules" override={override("rules")}>
        <RulesEditor rules={shown("rules") as Rule[]} disabled={locked("rules")} onChange={(rules) => set("rules", rules)} />
      </Section>
    </div>
  );
}

function Section({ title, override, children }: { title: string; override: ReactNode; children: ReactNode }) {
  return (
    <section className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-medium">{title}</h3>
        {override}
      </div>
      {children}
    </section>
  );
}

function Toggle(props: { id: string; checked: boolean; disabled: boolean; onChange: (checked: boolean) => void; label: string; hint: string }) {
  return (
    <div className="flex items-start gap-3">
      <Checkbox id={props.id} data-testid={props.id} checked={props.checked} disabled={props.disabled} onCheckedChange={(c) => props.onChange(c === true)} />
      <div className="grid gap-1">
        <Label htmlFor={props.id}>{props.label}</Label>
        <p className="text-xs text-muted-foreground">{props.hint}</p>
      </div>
    </div>
  );
}

function FieldList({
  id,
  names,
  disabled,
  onChange,
  hint,
}: {
  id: string;
  names: string[];
  disabled: boolean;
  onChange: (names: string[]) => void;
  hint: string;
}) {
  const [draft, setDraft] = useState("");
  const add = () => {
    const name = draft.trim();
    if (name && !names.includes(name)) onChange([...names, name]);
    setDraft("");
  };
  return (
    <div className="grid gap-2" data-testid={id}>
      <p className="text-xs text-muted-foreground">{hint}</p>
      {names.length === 0 ? <p className="text-sm text-muted-foreground">None.</p> : null}
      <ul className="flex flex-wrap gap-2">
        {names.map((name) => (
          <li key={name} className="flex items-center gap-1 rounded-md border px-2 py-0.5 text-sm">
            <code>{name}</code>
            {disabled ? null : (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="h-6 px-1"
                aria-label={`Remove ${name}`}
                onClick={() => onChange(names.filter((n) => n !== name))}
              >
                <Trash2Icon className="size-3" />
              </Button>
            )}
          </li>
        ))}
      </ul>
      {disabled ? null : (
        <div className="flex gap-2">
          <Input
            aria-label="Field name"
            data-testid={`${id}-input`}
            value={draft}
            placeholder="e.g. phone"
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                add();
              }
            }}
          />
          <Button type="button" variant="outline" onClick={add} data-testid={`${id}-add`}>
            Add
          </Button>
        </div>
      )}
    </div>
  );
}

function RulesEditor({ rules, disabled, onChange }: { rules: Rule[]; disabled: boolean; onChange: (rules: Rule[]) => void }) {
  const update = (index: number, rule: Rule) => onChange(rules.map((r, i) => (i === index ? rule : r)));
  return (
    <div className="grid gap-3" data-testid="scrub-rules">
      {rules.length === 0 ? <p className="text-sm text-muted-foreground">No rules. Add one to scrub values wherever they appear in an event.</p> : null}
      {rules.map((rule, index) => (
        <div key={index} className="grid gap-2 rounded-md border p-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto]" data-testid="scrub-rule">
          <NativeSelect
            aria-label="What to find"
            value={rule.type}
            disabled={disabled}
            onChange={(event) => update(index, { ...rule, type: event.target.value as ScrubRuleType })}
          >
            {SCRUB_RULE_TYPES.map((type) => (
              <option key={type} value={type}>
                {TYPE_LABELS[type]}
              </option>
            ))}
          </NativeSelect>
          <NativeSelect
            aria-label="What to put instead"
            value={rule.method}
            disabled={disabled}
            onChange={(event) => update(index, { ...rule, method: event.target.value as ScrubMethod })}
          >
            {SCRUB_METHODS.map((method) => (
              <option key={method} value={method}>
                {METHOD_LABELS[method]}
              </option>
            ))}
          </NativeSelect>
          {disabled ? (
            <span />
          ) : (
            <Button type="button" variant="ghost" size="sm" aria-label="Remove rule" onClick={() => onChange(rules.filter((_, i) => i !== index))}>
              <Trash2Icon className="size-4" />
            </Button>
          )}
          {rule.type === "pattern" ? (
            <Input
              aria-label="Pattern (regular expression)"
              data-testid="scrub-rule-pattern"
              className="font-mono sm:col-span-3"
              placeholder="cus_[A-Za-z0-9]+"
              value={rule.pattern ?? ""}
              disabled={disabled}
              onChange={(event) => update(index, { ...rule, pattern: event.target.value })}
            />
          ) : null}
          {rule.method === "replace" ? (
            <Input
              aria-label="Replacement"
              data-testid="scrub-rule-replacement"
              className="sm:col-span-3"
              placeholder="[customer]"
              value={rule.replacement ?? ""}
              disabled={disabled}
              onChange={(event) => update(index, { ...rule, replacement: event.target.value })}
            />
          ) : null}
        </div>
      ))}
      {disabled ? null : (
        <div>
          <Button
            type="button"
            variant="outline"
            size="sm"
            data-testid="add-scrub-rule"
            onClick={() => onChange([...rules, { type: "creditcard", method: "mask" }])}
          >
            <PlusIcon /> Add rule
          </Button>
        </div>
      )}
    </div>
  );
}
