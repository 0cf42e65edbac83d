import type { RouterOutputs } from "@/client/lib/trpc";
import { formatDateTime, formatNumber } from "@/client/lib/format";

type Usage = RouterOutputs["billing"]["usage"];

/** This month's accepted events against the plan's quota. */
export function UsageMeter({ usage }: { usage: Usage }) {
  const unlimited = usage.quota === 0;
  const percent = unlimited ? 0 : Math.min(100, Math.round((usage.used / usage.quota) * 100));
  return (
    <div className="grid gap-2" data-testid="usage-meter">
      <div className="flex justify-between text-sm">
        <span>
          {formatNumber(usage.used)} {unlimited ? "events this month" : `of ${formatNumber(usage.quota)} events this month`}
        </span>
        {unlimited ? null : <span className={percent >= 100 ? "font-medium text-destructive" : "text-muted-foreground"}>{percent} %</span>}
      </div>
      {unlimited ? null : (
        <div
          className="h-2 overflow-hidden rounded-full bg-muted"
          role="meter"
          aria-valuemin={0}
          aria-valuemax={usage.quota}
          aria-valuenow={usage.used}
          aria-label="Events used"
        >
          <div
            className={percent >= 100 ? "h-full bg-destructive" : percent >= 80 ? "h-full bg-amber-500" : "h-full bg-primary"}
            style={{ width: `${percent}%` }}
          />
        </div>
      )}
      <p className="text-xs text-muted-foreground">
        The count starts again on {formatDateTime(usage.resetsAt)}.{" "}
        {unlimited ? null : "Over the quota, new events are refused (HTTP 429) until then; owners are mailed at 80 % and 100 %."}
      </p>
    </div>
  );
}
