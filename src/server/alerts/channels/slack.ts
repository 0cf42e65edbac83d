import { clip, factsOf, headlineOf, type AlertMessage } from "../alert-message";
import { escapeSlack } from "./escape";

/**
 * A Slack incoming-webhook body: Block Kit, with the untrusted title and facts in `plain_text`
 * (never parsed as mrkdwn) and the one mrkdwn string — the link — built from escaped text.
 */
export function slackBody(message: AlertMessage) {
  const headline = headlineOf(message);
  const title = message.issue ? clip(message.issue.title, 300) : headline;
  const blocks: unknown[] = [
    { type: "header", text: { type: "plain_text", text: clip(headline, 150), emoji: false } },
    { type: "section", text: { type: "mrkdwn", text: `*<${message.url}|${escapeSlack(title)}>*` } },
  ];
  if (message.issue?.culprit) blocks.push({ type: "context", elements: [{ type: "plain_text", text: clip(message.issue.culprit, 300), emoji: false }] });
  const facts = factsOf(message);
  if (facts.length > 0)
    blocks.push({
      type: "section",
      fields: facts.slice(0, 10).map(([label, value]) => ({ type: "plain_text", text: clip(`${label}: ${value}`, 300), emoji: false })),
    });
  // `text` is the notification's fallback (and what screen readers and push previews show).
  return { text: escapeSlack(clip(`${headline}: ${title}`, 500)), blocks, unfurl_links: false, unfurl_media: false };
}
