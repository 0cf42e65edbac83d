import { Router } from "express";
import { escapeHtml, type Mailer } from "./mailer";

/** Development only: the mails that would have been sent, with clickable action links. */
export function outboxRoutes(mailer: Mailer) {
  const routes = Router();
  routes.get("/dev/outbox.json", (_req, res) => {
    res.json(mailer.outbox());
  });
  routes.get("/dev/outbox", (_req, res) => {
    const rows = mailer
      .outbox()
      .map(
        (mail) => `<li data-kind="${escapeHtml(mail.kind)}" data-to="${escapeHtml(mail.to)}">
  <p><strong>${escapeHtml(mail.subject)}</strong><br><small>to ${escapeHtml(mail.to)} · ${escapeHtml(mail.sentAt)}</small></p>
  <p>${escapeHtml(mail.text).replace(/\n/g, "<br>")}</p>
  <p><a href="${escapeHtml(mail.actionUrl)}">${escapeHtml(mail.actionUrl)}</a></p>
</li>`,
      )
      .join("\n");
    res.type("html").send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Faultline outbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#111}li{border:1px solid #ddd;border-radius:8px;padding:.5rem 1rem;margin:.75rem 0;list-style:none}a{word-break:break-all}</style>
</head><body><h1>Local outbox</h1>
<p>No SMTP_URL is configured, so Faultline keeps the mails it would have sent here (newest first). Set SMTP_URL to deliver them.</p>
${rows ? `<ul>${rows}</ul>` : "<p>No mails yet.</p>"}
</body></html>`);
  });
  return routes;
}
