import { clip, factsOf, headlineOf, type AlertMessage } from "../alert-message";
import { escapeHtml } from "./escape";

/** An alert email: subject, plain text and HTML (every untrusted value HTML-escaped; no remote content). */
export function alertEmail(message: AlertMessage): { subject: string; text: string; html: string } {
  const headline = headlineOf(message);
  const title = message.issue ? clip(message.issue.title, 300) : "";
  // Subjects are one line: a title's line breaks must not become header folding.
  const subject = clip(`[Faultline] ${headline}${title ? `: ${title}` : ""}`.replace(/[\r\n]+/g, " "), 200);
  const facts = factsOf(message);
  const culprit = message.issue?.culprit ? clip(message.issue.culprit, 300) : null;
  const text = [headline, title, culprit, "", ...facts.map(([label, value]) => `${label}: ${clip(value, 300)}`), "", `Open the issue: ${message.url}`]
    .filter((line) => line !== null)
    .join("\n");
  const rows = facts.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(clip(value, 300))}</td></tr>`).join("");
  const html = [
    `<h2>${escapeHtml(headline)}</h2>`,
    title ? `<p><strong>${escapeHtml(title)}</strong></p>` : "",
    culprit ? `<p><code>${escapeHtml(culprit)}</code></p>` : "",
    rows ? `<table>${rows}</table>` : "",
    `<p><a href="${escapeHtml(message.url)}">Open the issue in Faultline</a></p>`,
    `<p style="color:#666">You get this because of the alert rule "${escapeHtml(message.rule.name)}". Opt out per project in your Faultline settings.</p>`,
  ].join("");
  return { subject, text, html };
}
