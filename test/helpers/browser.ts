import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import type { HttpSession } from "./http-session";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

/** Debian's Chromium, headless, with the flags this closed network needs (see the machine notes). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/** A fresh browser profile (own cookies and storage) that records page errors and dialogs. */
export async function newPage(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, problems };
}

/** Gives a browser page the API session's cookies: the same signed-in user. */
export async function signInPage(page: Page, session: HttpSession, url: string) {
  const { hostname } = new URL(url);
  await page
    .context()
    .addCookies([...session.cookies].map(([name, value]) => ({ name, value, domain: hostname, path: "/", httpOnly: true, sameSite: "Lax" as const })));
}
