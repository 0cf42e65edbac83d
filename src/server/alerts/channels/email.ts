import { clip, digestLine, factsOf, headlineOf, type AlertMessage } from "../alert-message";
import { escapeHtml } from "./escape";

/** An alert email: subject, plain text and HTML (every untrusted value HTML-escaped; no remote content). */
export function alertEmail(message: AlertMessage): { subject: string; text: string; html: string } {
  const headline = headlineOf(message);
  const title = message.issue ? clip(message.issue.title, 300) : "";
  // Subjects are one line: a title's line breaks must not become header folding.
  const subject = clip(`[Faultline] ${headline}${title ? `: ${title}` : ""}`.replace(/[\r\n]+/g, " "), 200);
  const facts = factsOf(message);
  const culprit = message.issue?.culprit ? clip(message.issue.culprit, 300) : null;
  const digest = message.digest;
  // A digest lists every held alert with its own link; the table would repeat them.
  const shown = digest ? facts.slice(0, 1) : facts;
  const unlisted = digest ? (message.suppressedCount ?? digest.length) - digest.length : 0;
  const more = unlisted > 0 ? `and ${unlisted.toLocaleString("en-US")} more` : null;
  const text = [
    headline,
    title,
    culprit,
    "",
    ...shown.map(([label, value]) => `${label}: ${clip(value, 300)}`),
    ...(digest ? ["", ...digest.map((entry) => `- ${digestLine(entry)}: ${entry.url}`), more] : []),
    "",
    `${digest ? "Open the issues" : "Open the issue"}: ${message.url}`,
  ]
    .filter((line) => line !== null)
    .join("\n");
  const rows = shown.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(clip(value, 300))}</td></tr>`).join("");
  const list = digest
    ? `<ul>${digest.map((entry) => `<li><a href="${escapeHtml(entry.url)}">${escapeHtml(digestLine(entry))}</a></li>`).join("")}${more ? `<li>${more}</li>` : ""}</ul>`
    : "";
  const html = [
    `<h2>${escapeHtml(headline)}</h2>`,
    title ? `<p><strong>${escapeHtml(title)}</strong></p>` : "",
    culprit ? `<p><code>${escapeHtml(culprit)}</code></p>` : "",
    rows ? `<table>${rows}</table>` : "",
    list,
    `<p><a href="${escapeHtml(message.url)}">${digest ? "Open the issues in Faultline" : "Open the issue in Faultline"}</a></p>`,
    `<p style="color:#666">You get this because of the alert rule "${escapeHtml(message.rule.name)}". Opt out per project in your Faultline settings.</p>`,
  ].join("");
  return { subject, text, html };
}
