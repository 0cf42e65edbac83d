import { Router } from "express";
import { loopbackOnly } from "../http/loopback-only";
import { escapeHtml, type Mailer } from "./mailer";

export const OUTBOX_PATH = "/dev/outbox";

/**
 * Development only: the mails that would have been sent, with clickable action links. Those links
 * reset passwords and accept invitations, so only a client on this machine may read them
 * (`trustedHops` = TRUST_PROXY, see loopback-only.ts); to everyone else the page does not exist.
 */
export function outboxRoutes(mailer: Mailer, trustedHops: number) {
  const routes = Router();
  const thisMachineOnly = loopbackOnly(trustedHops);
  routes.get(`${OUTBOX_PATH}.json`, thisMachineOnly, (_req, res) => {
    res.json(mailer.outbox());
  });
  routes.get(OUTBOX_PATH, thisMachineOnly, (_req, res) => {
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
