import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import type { HttpSession } from "./http-session";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

/** Debian's Chromium, headless, with the flags this closed network needs (see the machine notes). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/** One Chromium per test worker: starting one took 1–3 s a suite; suites stay apart in their own contexts. */
let sharedChromium: Promise<Browser> | undefined;

/**
 * A suite's browser: the worker's Chromium (started on first use, again if it died), seen through a
 * handle whose `close()` closes only the contexts — profiles, pages — this suite opened.
 */
export async function launchBrowser(): Promise<Browser> {
  sharedChromium ??= launchChromium();
  let chromiumProcess = await sharedChromium.catch(() => undefined);
  if (!chromiumProcess?.isConnected()) {
    sharedChromium = launchChromium();
    chromiumProcess = await sharedChromium;
  }
  const opened = new Set<BrowserContext>();
  return new Proxy(chromiumProcess, {
    get(target, property) {
      if (property === "newContext")
        return async (...options: Parameters<Browser["newContext"]>) => {
          const context = await target.newContext(...options);
          opened.add(context);
          return context;
        };
      if (property === "close") return () => Promise.all([...opened].map((context) => context.close().catch(() => undefined))).then(() => undefined);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
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
