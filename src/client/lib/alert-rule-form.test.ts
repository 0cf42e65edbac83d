import { describe, expect, it } from "vitest";
import type { AlertRuleView } from "@/shared/alert.views";
import { draftFromRule, newActionDraft, newRuleDraft, ruleBodyFromDraft } from "./alert-rule-form";

const saved: AlertRuleView = {
  id: "00000000-0000-4000-8000-000000000001",
  projectId: "00000000-0000-4000-8000-000000000002",
  name: "Checkout spikes",
  enabled: false,
  trigger: { type: "issue_frequency", count: 50, minutes: 10 },
  filters: { environments: ["PRODUCTION"], minLevel: "error", textContains: "timeout", tags: [{ key: "region", value: "eu" }] },
  actions: [
    { id: "00000000-0000-4000-8000-00000000000a", type: "email", to: "users", userIds: ["user-1"] },
    { id: "00000000-0000-4000-8000-00000000000b", type: "slack", urlHost: "https://hooks.slack.com" },
  ],
  intervalMinutes: 15,
  maxPerHour: 5,
  snoozedUntil: null,
  createdAt: new Date(),
  updatedAt: new Date(),
};

describe("alert rule form", () => {
  it("turns a new rule's draft into the API body with the defaults", () => {
    const draft = { ...newRuleDraft(), name: "  New issues  " };
    expect(ruleBodyFromDraft(draft)).toEqual({
      ok: true,
      body: {
        name: "New issues",
        enabled: true,
        trigger: { type: "new_issue" },
        filters: {},
        actions: [{ type: "email", to: "members" }],
        intervalMinutes: 30,
        maxPerHour: 20,
      },
    });
  });

  it("sends a saved rule back unchanged: saved actions keep their ids, a URL left empty keeps the saved one", () => {
    const result = ruleBodyFromDraft(draftFromRule(saved));
    expect(result).toEqual({
      ok: true,
      body: {
        name: "Checkout spikes",
        enabled: false,
        trigger: { type: "issue_frequency", count: 50, minutes: 10 },
        filters: saved.filters,
        actions: [
          { id: saved.actions[0].id, type: "email", to: "users", userIds: ["user-1"] },
          { id: saved.actions[1].id, type: "slack" },
        ],
        intervalMinutes: 15,
        maxPerHour: 5,
      },
    });
  });

  it("makes a saved action switched to another channel a new action, and one switched back the saved one again", () => {
    const draft = draftFromRule(saved);
    draft.actions[1] = { ...draft.actions[1], type: "webhook", url: "https://hooks.example.com/x" };
    const switched = ruleBodyFromDraft(draft);
    expect(switched.ok && switched.body.actions[1]).toEqual({ type: "webhook", url: "https://hooks.example.com/x" });
    draft.actions[1] = { ...draft.actions[1], type: "slack", url: "" };
    const back = ruleBodyFromDraft(draft);
    expect(back.ok && back.body.actions[1]).toEqual({ id: saved.actions[1].id, type: "slack" });
  });

  it("leaves out empty filters and tag rows, and keeps the trigger's fields to its type", () => {
    const draft = {
      ...newRuleDraft(),
      name: "Levels",
      trigger: "level" as const,
      level: "fatal" as const,
      tags: [{ key: " ", value: "" }],
      textContains: "  ",
    };
    const result = ruleBodyFromDraft(draft);
    expect(result.ok && result.body.trigger).toEqual({ type: "level", level: "fatal" });
    expect(result.ok && result.body.filters).toEqual({});
  });

  it("answers the first problem in words a user can act on", () => {
    expect(ruleBodyFromDraft(newRuleDraft())).toEqual({ ok: false, message: "Please enter a rule name" });
    const named = { ...newRuleDraft(), name: "x" };
    expect(ruleBodyFromDraft({ ...named, trigger: "event_rate", count: "" })).toEqual({ ok: false, message: "Please enter the number of events as a number" });
    expect(ruleBodyFromDraft({ ...named, trigger: "event_rate", minutes: "90" })).toEqual({ ok: false, message: "minutes must be between 1 and 60" });
    expect(ruleBodyFromDraft({ ...named, intervalMinutes: "0" })).toEqual({ ok: false, message: "The interval is 1 to 1440 minutes" });
    expect(ruleBodyFromDraft({ ...named, actions: [] })).toEqual({ ok: false, message: "Please add at least one action" });
    expect(ruleBodyFromDraft({ ...named, actions: [{ ...newActionDraft("webhook") }] })).toEqual({ ok: false, message: "Please enter the URL" });
    expect(ruleBodyFromDraft({ ...named, actions: [{ ...newActionDraft(), to: "team" }] })).toEqual({ ok: false, message: "Please choose a team" });
    expect(ruleBodyFromDraft({ ...named, tags: [{ key: "region", value: "" }] })).toEqual({ ok: false, message: "Please enter a tag value" });
  });
});
