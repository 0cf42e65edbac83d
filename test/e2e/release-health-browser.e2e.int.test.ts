import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseHealthHourly, releaseHealthUsers } from "../../src/server/db/schema/index";
import { hasChromium, launchBrowser, newPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { countSentSessions, crashFreePercent, type SentSession } from "../helpers/sent-sessions";
import { startCustomerSite, type CustomerSite } from "../helpers/customer-site";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * A page with the real @sentry/browser and its default integrations (browserSessionIntegration: a
 * session per page load). `?user=` names the signed-in user; `window.fail("handled" | "unhandled")`
 * reports an error as the app would.
 */
const APP = `import * as Sentry from "@sentry/browser";
const user = new URLSearchParams(location.search).get("user");
Sentry.init({ dsn: window.FAULTLINE_DSN, release: "shop@4.2.0", environment: "production", initialScope: { user: { id: user } } });
window.fail = async (how) => {
  if (how === "handled") {
    try {
      JSON.parse("{not json");
    } catch (error) {
      Sentry.captureException(error);
    }
  } else {
    await new Promise((resolve) => {
      setTimeout(() => {
        throw new TypeError("cart is undefined");
      });
      setTimeout(resolve, 50);
    });
  }
};
window.flushed = () => Sentry.flush(5000);
`;

describe.runIf(hasChromium)("release health from a real @sentry/browser page in Chromium", () => {
  let server: TestServer;
  let site: CustomerSite | undefined;
  let siteUrl: string;
  let browser: Browser;
  let work: string;
  let project: { id: string; dsn: string };
  let session: HttpSession;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    ({ session } = await signUpVerified(server));
    orgId = (await createOrganization(session, "Shop")).id;
    project = (await session.mutation("project.create", { name: "Shop Web", platform: "BROWSER_JS" })).data;
    work = mkdtempSync(path.join(tmpdir(), "faultline-browser-sessions-"));
    await mkdir(path.join(work, "src"), { recursive: true });
    await writeFile(path.join(work, "src/app.js"), APP);
    await build({
      entryPoints: [path.join(work, "src/app.js")],
      outfile: path.join(work, "dist/app.js"),
      bundle: true,
      format: "iife",
      nodePaths: [path.join(ROOT, "node_modules")],
      logLevel: "silent",
    });
    site = await startCustomerSite(project.dsn, { scriptPath: "/app.js", scriptFile: path.join(work, "dist/app.js") });
    siteUrl = site.url;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("counts a session per page load, errored after an error, by the worst status the SDK sent", { timeout: 120_000 }, async () => {
    const sent: SentSession[] = [];
    const answers: number[] = [];
    const visits: { user: string; fail?: "handled" | "unhandled" }[] = [
      { user: "ana" },
      { user: "ana", fail: "handled" },
      { user: "ben", fail: "unhandled" },
      { user: "ben" },
      { user: "cleo", fail: "handled" },
    ];
    for (const visit of visits) {
      const { page } = await newPage(browser);
      page.on("request", (request) => {
        if (!request.url().includes("/envelope/")) return;
        // An envelope is newline-separated JSON: header, then item header and payload pairs.
        const lines = (request.postData() ?? "").split("\n").filter(Boolean);
        for (let i = 1; i + 1 < lines.length; i += 2) if (JSON.parse(lines[i]).type === "session") sent.push(JSON.parse(lines[i + 1]));
      });
      page.on("response", (response) => {
        if (response.url().includes("/envelope/")) answers.push(response.status());
      });
      await page.goto(`${siteUrl}/?user=${visit.user}`);
      if (visit.fail) await page.evaluate(`window.fail(${JSON.stringify(visit.fail)})`);
      await page.evaluate("window.flushed()");
      await page.close();
    }
    expect(answers.length).toBeGreaterThanOrEqual(visits.length);
    expect(answers.every((status) => status === 200)).toBe(true);

    // What the SDK sent, counted by Sentry's rules: started on init; the worst outcome per session.
    expect(new Set(sent.map((session) => session.sid)).size).toBe(visits.length);
    const { users: sentUsers, crashedUsers, ...expected } = countSentSessions(sent);
    // The browser SDK reports an unhandled error as `unhandled` (the page lives on), an errored session.
    expect(sent.some((session) => session.status === "unhandled")).toBe(true);
    expect(expected).toEqual({ sessions: 5, errored: 3, crashed: 0, abnormal: 0 });
    expect({ sentUsers, crashedUsers }).toEqual({ sentUsers: 3, crashedUsers: 0 });

    const totals = async () => {
      const rows = await server.database.db.select().from(releaseHealthHourly).where(eq(releaseHealthHourly.projectId, project.id));
      return rows.reduce(
        (sum, row) => ({
          sessions: sum.sessions + row.sessions,
          errored: sum.errored + row.errored,
          crashed: sum.crashed + row.crashed,
          abnormal: sum.abnormal + row.abnormal,
        }),
        { sessions: 0, errored: 0, crashed: 0, abnormal: 0 },
      );
    };
    expect(await totals()).toEqual(expected);
    const users = await server.database.db.select().from(releaseHealthUsers).where(eq(releaseHealthUsers.projectId, project.id));
    expect(users.map((user) => [user.release, user.environment, user.userKey, user.crashed]).sort()).toEqual([
      ["shop@4.2.0", "production", "ana", false],
      ["shop@4.2.0", "production", "ben", false],
      ["shop@4.2.0", "production", "cleo", false],
    ]);

    // The product's answer for the same sessions: the releases list over REST.
    const list = await session.request(`/api/v1/organizations/${orgId}/projects/${project.id}/releases`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.items.map((item: { version: string }) => item.version)).toEqual(["shop@4.2.0"]);
    expect(list.body.items[0].health).toMatchObject({
      sessions: expected.sessions,
      crashFreeSessions: crashFreePercent(expected.crashed, expected.sessions),
      crashFreeUsers: crashFreePercent(crashedUsers, sentUsers),
    });
  });
});
