import type { Request, Response } from "express";

/**
 * GET /api/auth/error (spec §2): where better-auth sends a browser whose sign-in failed, with the
 * code in `?error=`. better-auth's stock page links to its vendor's site and documentation; this
 * one is the product's own: the code, what it means when we know, and "Return to Application" (/).
 * Light or dark follows the system. Everything from the query is escaped.
 */
const EXPLANATIONS: Record<string, string> = {
  please_restart_the_process: "The sign-in took too long or was started in another browser. Please start again.",
  state_not_found: "The sign-in took too long or was started in another browser. Please start again.",
  invalid_callback_request: "The provider sent back an answer we could not read. Please start again.",
  email_not_verified: "Your email address is not verified yet. We sent you a link to verify it; open it, then sign in again.",
  account_not_linked: "An account with this email already exists. Sign in with your password, then link the provider in Settings → Account.",
  "email_doesn't_match": "The provider account uses a different email address than yours.",
  account_already_linked_to_different_user: "This provider account is already linked to another user.",
  unable_to_link_account: "We could not link this provider account. Please try again.",
  unable_to_get_user_info: "The provider did not tell us who you are. Please try again.",
  email_not_found: "The provider did not share an email address. Allow it to, then try again.",
  signup_disabled: "Signing up with this provider is turned off.",
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] as string);

const firstString = (value: unknown) => (typeof value === "string" ? value : Array.isArray(value) && typeof value[0] === "string" ? value[0] : "");

export function authErrorPage(req: Request, res: Response) {
  const code = firstString(req.query.error).slice(0, 200) || "unknown_error";
  const description = firstString(req.query.error_description).slice(0, 500);
  const explanation = EXPLANATIONS[code] ?? "Something went wrong while signing you in.";
  res.status(200).type("html").set("Cache-Control", "no-store").send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Sign-in error · Faultline</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
  :root { color-scheme: light dark; --bg: #f8fafc; --card: #ffffff; --text: #0f172a; --muted: #475569; --border: #e2e8f0; --accent: #dc2626; }
  @media (prefers-color-scheme: dark) { :root { --bg: #020617; --card: #0f172a; --text: #f1f5f9; --muted: #94a3b8; --border: #1e293b; --accent: #f87171; } }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--text); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
  main { max-width: 28rem; margin: 1rem; padding: 2rem; background: var(--card); border: 1px solid var(--border); border-radius: 0.75rem; }
  .brand { font-weight: 600; letter-spacing: -0.01em; margin: 0 0 1.5rem; }
  .brand span { color: var(--accent); }
  h1 { font-size: 1.25rem; margin: 0 0 0.5rem; }
  p { color: var(--muted); margin: 0 0 1rem; }
  code { display: inline-block; padding: 0.125rem 0.375rem; border: 1px solid var(--border); border-radius: 0.375rem; font-size: 0.875rem; color: var(--text); }
  a.button { display: inline-block; margin-top: 0.5rem; padding: 0.5rem 1rem; border-radius: 0.5rem; background: var(--text); color: var(--bg); text-decoration: none; font-weight: 500; }
</style>
</head>
<body>
<main>
  <p class="brand"><span>◆</span> Faultline</p>
  <h1>We could not sign you in</h1>
  <p>${escapeHtml(explanation)}</p>
  <p>Error code: <code data-testid="auth-error-code">${escapeHtml(code)}</code></p>
  ${description ? `<p>${escapeHtml(description)}</p>` : ""}
  <a class="button" href="/">Return to Application</a>
</main>
</body>
</html>`);
}
