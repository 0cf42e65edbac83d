import { Router } from "express";
import { loopbackOnly } from "../http/loopback-only";
import { FAVICON_PATH } from "../http/favicon";
import { escapeHtml, type Mailer } from "./mailer";

export const OUTBOX_PATH = "/dev/outbox";

/** The product's look without its bundle (this page is served by the server alone): light and dark, readable on a phone. */
const OUTBOX_STYLE = `
:root{color-scheme:light dark;--bg:#f8f8f9;--card:#fff;--fg:#18181b;--muted:#71717a;--border:#e4e4e7;--brand:#e5484d;--link:#2563eb}
@media (prefers-color-scheme:dark){:root{--bg:#0b0b0d;--card:#18181b;--fg:#f4f4f5;--muted:#a1a1aa;--border:#27272a;--link:#60a5fa}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header{display:flex;align-items:center;gap:.6rem;padding:.9rem 1.25rem;border-bottom:1px solid var(--border);background:var(--card)}
header img{width:28px;height:28px}
header strong{font-size:1rem}
header span{color:var(--muted);font-size:.9rem}
main{max-width:760px;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.4rem;margin:0 0 .25rem}
.lead{color:var(--muted);margin:0 0 1.25rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85em;background:var(--border);padding:.1em .3em;border-radius:4px}
ul{list-style:none;margin:0;padding:0;display:grid;gap:.75rem}
li{background:var(--card);border:1px solid var(--border);border-radius:10px;padding:1rem 1.1rem}
.subject{font-weight:600;margin:0}
.meta{color:var(--muted);font-size:.85rem;margin:.15rem 0 .6rem}
.kind{display:inline-block;margin-left:.4rem;padding:0 .45rem;border-radius:999px;background:var(--border);color:var(--fg);font-size:.75rem;font-weight:500}
.text{white-space:pre-wrap;margin:0 0 .75rem}
a{color:var(--link);word-break:break-all}
.empty{background:var(--card);border:1px dashed var(--border);border-radius:10px;padding:2rem;text-align:center;color:var(--muted)}
`;

/**
 * Development only: the mails that would have been sent, with clickable action links. Those links
 * reset passwords and accept invitations, so only a client on this machine may read them
 * (`trustedHops` = TRUST_PROXY, see loopback-only.ts): to a client elsewhere the page does not
 * exist, and a request through a proxy TRUST_PROXY does not trust is refused with the reason.
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
  <p class="subject">${escapeHtml(mail.subject)}<span class="kind">${escapeHtml(mail.kind)}</span></p>
  <p class="meta">to ${escapeHtml(mail.to)} · ${escapeHtml(mail.sentAt)}</p>
  <p class="text">${escapeHtml(mail.text)}</p>
  <p><a href="${escapeHtml(mail.actionUrl)}">${escapeHtml(mail.actionUrl)}</a></p>
</li>`,
      )
      .join("\n");
    res.type("html").send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox · Faultline</title>
<link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}">
<style>${OUTBOX_STYLE}</style>
</head><body>
<header><img src="${FAVICON_PATH}" alt=""><strong>Faultline</strong><span>Local outbox</span></header>
<main><h1>Local outbox</h1>
<p class="lead">No <code>SMTP_URL</code> is configured, so Faultline keeps the mails it would have sent here (newest first). Set <code>SMTP_URL</code> to deliver them.</p>
${rows ? `<ul>${rows}</ul>` : `<p class="empty">No mails yet.</p>`}
</main></body></html>`);
  });
  return routes;
}
