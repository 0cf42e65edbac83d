import { describe, expect, it } from "vitest";
import type { AlertMessage } from "../alert-message";
import { discordBody } from "./discord";
import { alertEmail } from "./email";
import { slackBody } from "./slack";
import { teamsBody } from "./teams";
import { signatureHeader, verifySignature, webhookBody } from "./webhook";

const hostile = "@everyone <!channel> [click](https://evil.example) <script>alert(1)</script> *bold* @here";
const message: AlertMessage = {
  kind: "alert",
  reason: "new_issue",
  rule: { id: "00000000-0000-4000-8000-000000000001", name: "Rule <b>" },
  project: { id: "00000000-0000-4000-8000-000000000002", name: "Shop" },
  url: "https://faultline.example/dashboard/issues/abc?projectId=p",
  issue: {
    id: "00000000-0000-4000-8000-000000000003",
    projectId: "00000000-0000-4000-8000-000000000002",
    title: `Error: ${hostile}`,
    culprit: `handler(${hostile})`,
    level: "error",
    status: "OPEN",
    eventCount: 1234,
    userCount: 5,
    firstSeen: new Date("2026-01-01T00:00:00Z"),
    lastSeen: new Date("2026-01-01T01:00:00Z"),
    environment: "production",
    release: "1.0.0",
    topFrame: "handler (app.js:3)",
    tags: {},
    environments: ["production"],
  },
};

describe("channel formats escape untrusted event text", () => {
  it("Slack: no live mention, no link but ours", () => {
    const json = JSON.stringify(slackBody(message));
    expect(json).not.toMatch(/<!channel>|@everyone|@here|<https:\/\/evil/);
    expect(json).toContain("&lt;!channel&gt;");
    expect(json).toContain(`<${message.url}|`);
  });

  it("Discord: mentions disabled and Markdown links escaped", () => {
    const body = discordBody(message);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const json = JSON.stringify(body);
    expect(json).not.toContain("@everyone");
    expect(json).not.toContain("[click](https");
    expect(body.embeds[0].title).toContain("\\[click\\]\\(https");
    expect(body.embeds[0].fields.find((field) => field.name === "Events")?.value).toBe("1,234");
  });

  it("Teams: Markdown escaped in the Adaptive Card", () => {
    const json = JSON.stringify(teamsBody(message));
    expect(json).not.toContain("[click](https");
    expect(json).not.toContain("@everyone");
    expect(json).toContain("application/vnd.microsoft.card.adaptive");
  });

  it("Email: HTML escaped, one-line subject, link to the issue in text and HTML", () => {
    const mail = alertEmail({ ...message, issue: { ...message.issue!, title: "Line one\r\nBcc: victim@example.com <b>" } });
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).not.toContain("<b>");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&#60;script&#62;");
    expect(mail.text).toContain(message.url);
    expect(mail.html).toContain(`href="${message.url}"`);
  });

  it("Webhook: the documented body, and a signature a receiver verifies (and a tampered body fails)", () => {
    const raw = JSON.stringify(webhookBody(message));
    expect(JSON.parse(raw)).toMatchObject({
      type: "new_issue",
      rule: { id: message.rule.id, name: "Rule <b>" },
      issue: { id: message.issue!.id, eventCount: 1234, userCount: 5, url: message.url, firstSeen: "2026-01-01T00:00:00.000Z" },
      project: { id: message.project.id, name: "Shop" },
      test: false,
    });
    const header = signatureHeader("whsec_test", raw);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature("whsec_test", raw, header)).toBe(true);
    expect(verifySignature("whsec_test", `${raw} `, header)).toBe(false);
    expect(verifySignature("whsec_test", raw, header, 300, new Date(Date.now() + 3_600_000))).toBe(false);
  });

  describe("a digest", () => {
    const entryUrl = (n: number) => `https://faultline.example/dashboard/issues/i${n}?projectId=p`;
    const digest: AlertMessage = {
      ...message,
      kind: "digest",
      reason: "digest",
      issue: null,
      url: "https://faultline.example/dashboard/issues?projectId=p",
      suppressedCount: 52,
      digest: Array.from({ length: 50 }, (_, n) => ({
        issueId: `i${n}`,
        title: n === 0 ? `Error: ${hostile}` : `Error ${n}`,
        reason: n === 1 ? "regression" : "new_issue",
        url: entryUrl(n),
        eventCount: n + 1,
      })),
    };

    it("Email: says how many, lists each held issue with its link and count, escaped, and counts the unlisted", () => {
      const mail = alertEmail(digest);
      expect(mail.subject).toBe("[Faultline] Rule <b>: 52 more alerts in Shop");
      expect(mail.text).toContain(`- New issue: Error 2 (3 events): ${entryUrl(2)}`);
      expect(mail.text).toContain(`- Regression: Error 1 (2 events): ${entryUrl(1)}`);
      expect(mail.text).toContain("and 2 more");
      expect(mail.html).toContain(`<a href="${entryUrl(49)}">New issue: Error 49 (50 events)</a>`);
      expect(mail.html).not.toContain("<script>");
      expect(mail.html).toContain("&#60;script&#62;");
      expect(mail.html).toContain("<li>and 2 more</li>");
    });

    it("Webhook: suppressedCount and the listed issues", () => {
      const body = webhookBody(digest);
      expect(body).toMatchObject({ type: "digest", issue: null, suppressedCount: 52 });
      expect(body.issues).toHaveLength(50);
      expect(body.issues?.[1]).toEqual({ id: "i1", title: "Error 1", reason: "regression", url: entryUrl(1), eventCount: 2 });
    });

    it("Slack: the first issues as escaped fields", () => {
      const json = JSON.stringify(slackBody(digest));
      expect(json).not.toMatch(/<!channel>|@everyone|@here/);
      expect(json).toContain("Rule &lt;b&gt;: 52 more alerts in Shop");
      expect(json).toContain("Regression: Error 1 (2 events)");
    });
  });
});
