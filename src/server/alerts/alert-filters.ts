import { ALERT_LEVELS, type AlertFilters, type AlertTrigger } from "../../shared/alert.inputs";
import { toEnvironmentBucket } from "../../shared/environments";
import type { AlertIssue } from "./alert-subject";

/** debug < info < warning < error < fatal; an unknown level ranks lowest. */
export function levelRank(level: string | null | undefined): number {
  return ALERT_LEVELS.indexOf((level ?? "") as (typeof ALERT_LEVELS)[number]);
}

/** Does an issue pass a rule's filters? Every filter given must hold. */
export function passesFilters(filters: AlertFilters, issue: AlertIssue): boolean {
  if (filters.environments?.length) {
    const buckets = new Set((issue.environments.length > 0 ? issue.environments : [issue.environment]).map((environment) => toEnvironmentBucket(environment)));
    if (!filters.environments.some((bucket) => buckets.has(bucket))) return false;
  }
  if (filters.minLevel && levelRank(issue.level) < levelRank(filters.minLevel)) return false;
  if (filters.textContains) {
    const needle = filters.textContains.toLowerCase();
    if (!`${issue.title}\n${issue.culprit ?? ""}`.toLowerCase().includes(needle)) return false;
  }
  for (const tag of filters.tags ?? []) if (issue.tags[tag.key] !== tag.value) return false;
  return true;
}

/**
 * What an issue fact (created or regressed) fires for a rule of an issue trigger, if anything.
 * `minutesSinceDeploy`: minutes from the project's last deploy finished before the issue was first
 * seen to that moment (null: no such deploy; absent: not looked up, no deploy rule is active).
 */
export function reasonForFact(
  trigger: AlertTrigger,
  kind: "new" | "regression",
  issue: Pick<AlertIssue, "level"> & { minutesSinceDeploy?: number | null },
): AlertTrigger["type"] | null {
  switch (trigger.type) {
    case "new_issue":
      if (kind === "new") return "new_issue";
      return trigger.includeRegressions ? "regression" : null;
    case "regression":
      return kind === "regression" ? "regression" : null;
    case "level":
      // An issue reaches a level when it first appears or comes back at it.
      return levelRank(issue.level) >= levelRank(trigger.level) ? "level" : null;
    case "new_issue_after_deploy": {
      const since = issue.minutesSinceDeploy;
      return kind === "new" && since !== undefined && since !== null && since <= (trigger.minutes ?? 0) ? "new_issue_after_deploy" : null;
    }
    default:
      return null;
  }
}
