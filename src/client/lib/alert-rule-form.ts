import {
  AlertRuleBody,
  DEFAULT_INTERVAL_MINUTES,
  DEFAULT_MAX_PER_HOUR,
  type AlertActionInput,
  type AlertChannel,
  type AlertLevel,
  type AlertTriggerType,
} from "@/shared/alert.inputs";
import type { AlertActionView, AlertRuleView } from "@/shared/alert.views";
import type { EnvironmentBucket } from "@/shared/environments";

/**
 * The alert rule dialog's state: what the inputs hold (numbers as typed text), turned into the
 * API's rule body on submit. Kept apart from the dialog so the conversion is tested on its own.
 */
export interface ActionDraft {
  /** Stable React key of the row. */
  key: string;
  /** The saved action this row edits; sent back (keeping its sealed URL and signing secret) while its type is unchanged. */
  savedId?: string;
  savedType?: AlertChannel;
  type: AlertChannel;
  to: "members" | "team" | "users";
  teamId: string;
  userIds: string[];
  /** A new URL; left empty on a saved URL action, it keeps the URL it has. */
  url: string;
  /** Where the saved action points (scheme and host), shown in place of its URL. */
  savedUrlHost?: string;
}

export interface TagDraft {
  key: string;
  value: string;
}

export interface RuleDraft {
  name: string;
  enabled: boolean;
  trigger: AlertTriggerType;
  count: string;
  minutes: string;
  level: AlertLevel;
  includeRegressions: boolean;
  environments: EnvironmentBucket[];
  /** "" for any level. */
  minLevel: AlertLevel | "";
  textContains: string;
  tags: TagDraft[];
  actions: ActionDraft[];
  intervalMinutes: string;
  maxPerHour: string;
}

let nextKey = 0;
const rowKey = () => `action-${++nextKey}`;

export function newActionDraft(type: AlertChannel = "email"): ActionDraft {
  return { key: rowKey(), type, to: "members", teamId: "", userIds: [], url: "" };
}

export function newRuleDraft(): RuleDraft {
  return {
    name: "",
    enabled: true,
    trigger: "new_issue",
    count: "100",
    minutes: "5",
    level: "error",
    includeRegressions: false,
    environments: [],
    minLevel: "",
    textContains: "",
    tags: [],
    actions: [newActionDraft()],
    intervalMinutes: String(DEFAULT_INTERVAL_MINUTES),
    maxPerHour: String(DEFAULT_MAX_PER_HOUR),
  };
}

function actionDraftFrom(action: AlertActionView): ActionDraft {
  return {
    key: rowKey(),
    savedId: action.id,
    savedType: action.type,
    type: action.type,
    to: action.to ?? "members",
    teamId: action.teamId ?? "",
    userIds: action.userIds ?? [],
    url: "",
    savedUrlHost: action.urlHost,
  };
}

export function draftFromRule(rule: AlertRuleView): RuleDraft {
  const blank = newRuleDraft();
  return {
    name: rule.name,
    enabled: rule.enabled,
    trigger: rule.trigger.type,
    count: String(rule.trigger.count ?? blank.count),
    minutes: String(rule.trigger.minutes ?? blank.minutes),
    level: rule.trigger.level ?? blank.level,
    includeRegressions: rule.trigger.includeRegressions === true,
    environments: rule.filters.environments ?? [],
    minLevel: rule.filters.minLevel ?? "",
    textContains: rule.filters.textContains ?? "",
    tags: (rule.filters.tags ?? []).map((tag) => ({ ...tag })),
    actions: rule.actions.map(actionDraftFrom),
    intervalMinutes: String(rule.intervalMinutes),
    maxPerHour: String(rule.maxPerHour),
  };
}

const NUMBER_FIELDS: Record<string, string> = {
  count: "the number of events",
  minutes: "the minutes",
  intervalMinutes: "the interval",
  maxPerHour: "the hourly limit",
};

/** Typed numbers: "" or junk stays NaN, which the rule body's checks refuse with their own message. */
const typedNumber = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));

/** A row switched to another channel is a new action (no id), unless it is switched back to the saved one's. */
function actionInput(action: ActionDraft): AlertActionInput {
  const id = action.savedId && action.savedType === action.type ? action.savedId : undefined;
  if (action.type === "email") {
    return {
      ...(id ? { id } : {}),
      type: "email",
      to: action.to,
      ...(action.to === "team" && action.teamId ? { teamId: action.teamId } : {}),
      ...(action.to === "users" ? { userIds: action.userIds } : {}),
    };
  }
  const url = action.url.trim();
  return { ...(id ? { id } : {}), type: action.type, ...(url ? { url } : {}) };
}

/** The API's rule body, checked as the server will check it: the first problem's message, or the body. */
export function ruleBodyFromDraft(draft: RuleDraft): { ok: true; body: AlertRuleBody } | { ok: false; message: string } {
  const frequency = draft.trigger === "issue_frequency" || draft.trigger === "event_rate";
  const text = draft.textContains.trim();
  const tags = draft.tags.map((tag) => ({ key: tag.key.trim(), value: tag.value.trim() })).filter((tag) => tag.key !== "" || tag.value !== "");
  const parsed = AlertRuleBody.safeParse({
    name: draft.name.trim(),
    enabled: draft.enabled,
    trigger: {
      type: draft.trigger,
      ...(frequency ? { count: typedNumber(draft.count), minutes: typedNumber(draft.minutes) } : {}),
      ...(draft.trigger === "new_issue_after_deploy" ? { minutes: typedNumber(draft.minutes) } : {}),
      ...(draft.trigger === "level" ? { level: draft.level } : {}),
      ...(draft.trigger === "new_issue" && draft.includeRegressions ? { includeRegressions: true } : {}),
    },
    filters: {
      ...(draft.environments.length > 0 ? { environments: draft.environments } : {}),
      ...(draft.minLevel ? { minLevel: draft.minLevel } : {}),
      ...(text ? { textContains: text } : {}),
      ...(tags.length > 0 ? { tags } : {}),
    },
    actions: draft.actions.map(actionInput),
    intervalMinutes: typedNumber(draft.intervalMinutes),
    maxPerHour: typedNumber(draft.maxPerHour),
  });
  if (parsed.success) return { ok: true, body: parsed.data };
  const issue = parsed.error.issues[0];
  const field = NUMBER_FIELDS[String(issue.path.at(-1))];
  return { ok: false, message: issue.code === "invalid_type" && field ? `Please enter ${field} as a number` : issue.message };
}
