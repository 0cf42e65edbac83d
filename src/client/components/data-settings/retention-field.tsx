import { Checkbox } from "@/client/components/ui/checkbox";
import { Input } from "@/client/components/ui/input";
import { Label } from "@/client/components/ui/label";
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS, RetentionDays } from "@/shared/data-settings.inputs";
import type { RetentionLimits } from "@/shared/data-settings.views";

/** The retention a card edits: whether this layer chooses its own days, and the days as typed. */
export interface RetentionDraft {
  chosen: boolean;
  days: string;
}

/** What the card shows around the field, from the last answer. */
export interface RetentionShown {
  /** What applies now (the plan's cap included). */
  effectiveDays: number;
  /** What the layer beneath gives: the product default (organization) or the organization's days (project). */
  inheritedDays: number;
  /** The checkbox that makes this layer choose: "Override the organization" or "Override the default". */
  overrideLabel: string;
  limits: RetentionLimits;
}

export const retentionDraft = (layerDays: number | null, inheritedDays: number): RetentionDraft => ({
  chosen: layerDays !== null,
  days: String(layerDays ?? inheritedDays),
});

/** The days a PUT sends (null: inherit), or why the typed text is no number of days. */
export function retentionLayerDays(draft: RetentionDraft): { days: number | null; error?: undefined } | { error: string } {
  if (!draft.chosen) return { days: null };
  const parsed = RetentionDays.safeParse(draft.days.trim() === "" ? Number.NaN : Number(draft.days));
  return parsed.success ? { days: parsed.data } : { error: parsed.error.issues[0].message };
}

interface Props {
  draft: RetentionDraft;
  shown: RetentionShown;
  onChange: (draft: RetentionDraft) => void;
  disabled: boolean;
}

/** "Keep events for N days", with what applies and, on the hosted deployment, the plan's cap. */
export function RetentionField({ draft, shown, onChange, disabled }: Props) {
  const { limits } = shown;
  return (
    <section className="grid gap-3" data-testid="retention">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-medium">Retention</h3>
        <label className="flex items-center gap-2 text-xs text-muted-foreground">
          <Checkbox
            data-testid="override-retentionDays"
            checked={draft.chosen}
            disabled={disabled}
            onCheckedChange={(checked) => onChange({ chosen: checked === true, days: checked === true ? draft.days : String(shown.inheritedDays) })}
          />
          {shown.overrideLabel}
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Label htmlFor="retention-days">Keep events for</Label>
        <Input
          id="retention-days"
          data-testid="retention-days"
          type="number"
          inputMode="numeric"
          min={MIN_RETENTION_DAYS}
          max={MAX_RETENTION_DAYS}
          step={1}
          className="w-28"
          value={draft.chosen ? draft.days : String(shown.inheritedDays)}
          disabled={disabled || !draft.chosen}
          onChange={(event) => onChange({ ...draft, days: event.target.value })}
        />
        <span className="text-sm">days</span>
      </div>
      <p className="text-xs text-muted-foreground" data-testid="retention-effective">
        Exceptions older than this are deleted. Now kept: <strong>{shown.effectiveDays} days</strong>.
        {limits.planCap !== null ? ` The ${limits.plan} plan keeps them at most ${limits.planCap} days.` : null}
        {limits.capped ? " More days are set than the plan keeps: they apply once the plan allows them." : null}
      </p>
    </section>
  );
}
