import { RotateCcwIcon } from "lucide-react";
import type { IssueSeverity, IssueStatus } from "@/shared/triage.inputs";
import { cn } from "@/client/lib/utils";
import { Badge } from "./ui/badge";

// Tinted badges: a translucent background with a darker text shade in light mode and a lighter
// one in dark mode, so each stays readable in both themes.
const TONES = {
  red: "border-transparent bg-red-500/15 text-red-700 dark:text-red-400",
  amber: "border-transparent bg-amber-500/15 text-amber-800 dark:text-amber-300",
  blue: "border-transparent bg-blue-500/15 text-blue-700 dark:text-blue-300",
  green: "border-transparent bg-emerald-500/15 text-emerald-700 dark:text-emerald-400",
  violet: "border-transparent bg-violet-500/15 text-violet-700 dark:text-violet-300",
  gray: "border-transparent bg-muted text-muted-foreground",
} as const;

const LEVEL_TONES: Record<string, keyof typeof TONES> = { fatal: "violet", error: "red", warning: "amber", info: "blue", debug: "gray" };
const STATUS_TONES: Record<IssueStatus, keyof typeof TONES> = { OPEN: "blue", RESOLVED: "green", IGNORED: "gray" };
const SEVERITY_TONES: Record<IssueSeverity, keyof typeof TONES> = { LOW: "gray", MEDIUM: "blue", HIGH: "amber", CRITICAL: "red" };

export const STATUS_LABELS: Record<IssueStatus, string> = { OPEN: "Open", RESOLVED: "Resolved", IGNORED: "Ignored" };
export const SEVERITY_LABELS: Record<IssueSeverity, string> = { LOW: "Low", MEDIUM: "Medium", HIGH: "High", CRITICAL: "Critical" };

export function LevelBadge({ level, className }: { level: string; className?: string }) {
  return (
    <Badge variant="outline" className={cn(TONES[LEVEL_TONES[level] ?? "gray"], "uppercase", className)} data-testid="issue-level">
      {level}
    </Badge>
  );
}

export function StatusBadge({ status }: { status: IssueStatus }) {
  return (
    <Badge variant="outline" className={TONES[STATUS_TONES[status] ?? "gray"]} data-testid="issue-status" data-status={status}>
      {STATUS_LABELS[status] ?? status}
    </Badge>
  );
}

export function SeverityBadge({ severity }: { severity: IssueSeverity }) {
  return (
    <Badge variant="outline" className={TONES[SEVERITY_TONES[severity] ?? "gray"]} data-testid="issue-severity" data-severity={severity}>
      {SEVERITY_LABELS[severity] ?? severity}
    </Badge>
  );
}

/** A resolved issue that occurred again; `compact` shows the icon only (the label stays for screen readers). */
export function RegressionBadge({ compact = false }: { compact?: boolean }) {
  return (
    <Badge variant="outline" className={cn(TONES.amber, compact && "px-1")} data-testid="issue-regression" title="Regression: resolved, then seen again">
      <RotateCcwIcon aria-hidden /> <span className={compact ? "sr-only" : undefined}>Regression</span>
    </Badge>
  );
}

export function EnvironmentBadge({ environment }: { environment: string }) {
  return (
    <Badge variant="outline" className="max-w-48 truncate font-normal" title={environment}>
      {environment}
    </Badge>
  );
}
