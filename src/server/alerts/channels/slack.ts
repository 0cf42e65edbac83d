import { clip, factsOf, headlineOf, type AlertMessage } from "../alert-message";
import { escapeSlack } from "./escape";

/**
 * A Slack incoming-webhook body: Block Kit, with the untrusted title and facts in `plain_text`
 * (never parsed as mrkdwn) and the one mrkdwn string — the link — built from escaped text.
 */
export function slackBody(message: AlertMessage) {
  // plain_text is not parsed for links, but Slack still wants &, < and > escaped in it, and clients highlight @mentions.
  const plain = (text: string, max: number) => ({ type: "plain_text", text: escapeSlack(clip(text, max)), emoji: false });
  const headline = headlineOf(message);
  const title = message.issue ? clip(message.issue.title, 300) : headline;
  const blocks: unknown[] = [
    { type: "header", text: plain(headline, 150) },
    { type: "section", text: { type: "mrkdwn", text: `*<${message.url}|${escapeSlack(title)}>*` } },
  ];
  if (message.issue?.culprit) blocks.push({ type: "context", elements: [plain(message.issue.culprit, 300)] });
  const facts = factsOf(message);
  if (facts.length > 0)
    blocks.push({
      type: "section",
      fields: facts.slice(0, 10).map(([label, value]) => plain(`${label}: ${value}`, 300)),
    });
  // `text` is the notification's fallback (and what screen readers and push previews show).
  return { text: escapeSlack(clip(`${headline}: ${title}`, 500)), blocks, unfurl_links: false, unfurl_media: false };
}
