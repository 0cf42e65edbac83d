import { existsSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { occurrences } from "../../src/server/db/schema/index";
import { hasChromium, launchBrowser, newPage, signInPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { loadCaptures, replayOverHttp } from "../helpers/sdk-fixtures";
import { envelopeOf, loadPayload, sendPayload } from "../helpers/sdk-payloads";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

/** The exception screen of a real native crash, a Python event with frame vars, and a captureMessage event. */
describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("exception screen fidelity in a real browser", () => {
  let server: TestServer;
  let browser: Browser;
  let session: HttpSession;
  let project: { id: string; number: number; apiKey: string };

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    ({ session } = await signUpVerified(server, { name: "Fidelity Tester" }));
    await createOrganization(session, "Fidelity Org");
    project = (await session.mutation("project.create", { name: "every-sdk", platform: "OTHER" })).data;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const target = () => ({ projectNumber: project.number, publicKey: project.apiKey });

  /** The exception screen's URL for a stored event id. */
  async function screenOf(eventId: string) {
    const [row] = await server.database.db
      .select({ id: occurrences.id, issueId: occurrences.issueId })
      .from(occurrences)
      .where(and(eq(occurrences.projectId, project.id), eq(occurrences.eventId, eventId)));
    return `${server.url}/dashboard/issues/${row.issueId}/exceptions/${row.id}?projectId=${project.id}`;
  }

  it("shows a native crash's address-only frames, threads and debug images readably", async () => {
    const crash = loadPayload("cocoa-converted-event.json");
    const response = await sendPayload(server.url, target(), "envelope", envelopeOf(crash));
    expect(response.status).toBe(200);
    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(await screenOf(String(crash.event_id)));
    await page.getByTestId("stack-frame").first().waitFor();

    expect(await page.getByTestId("exception-type").first().innerText()).toBe("EXC_BAD_ACCESS");
    // The in-app frames have no symbol ("<redacted>"): each reads `0x… in binary`.
    const frames = await page.getByTestId("stack-frames").first().innerText();
    expect(frames).toContain("0x00000001001be378 in CrashLibiOS");
    expect(frames).not.toContain("<redacted>");
    expect(await page.getByTestId("exception-detail").innerText()).toContain("Location");
    expect(await page.getByTestId("exception-thread").count()).toBe(9);
    expect(await page.getByTestId("exception-thread").first().innerText()).toContain("Crashed");
    expect(await page.getByTestId("debug-image").count()).toBe(200);
    expect(await page.getByTestId("exception-debug-images").innerText()).toContain("2C656702-AA16-3E5F-94D9-D4430DA53398");
    // Sent in 2017: stored at the receive time, the SDK's time shown beside it.
    expect(await page.getByTestId("exception-original-time").innerText()).toMatch(/2017/);
    expect(problems).toEqual([]);
  });

  it("shows a Python event's frame vars (scrubbed) and its packages", async () => {
    const capture = loadCaptures("python").find((c) => c.file === "001-handled-store.json")!;
    const response = await replayOverHttp(server.url, capture, target());
    expect(response.status).toBe(200);
    const { id } = await response.json();
    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(await screenOf(id));
    // The newest frame (charge_card) opens with its source and its locals.
    await page.getByTestId("frame-vars").first().waitFor();
    const vars = await page.getByTestId("frame-vars").first().innerText();
    expect(vars).toContain("cart");
    expect(vars).toContain("payment");
    expect(await page.getByTestId("modules-table").innerText()).toContain("sentry-sdk");
    expect(problems).toEqual([]);
  });

  it("shows the crashing frame as the issue's location beside the SDK's culprit", async () => {
    const event = loadPayload("cocoa-cordova-exception.json");
    const response = await sendPayload(server.url, target(), "store", JSON.stringify(event));
    expect(response.status).toBe(200);
    const { id } = await response.json();
    const [row] = await server.database.db.select({ issueId: occurrences.issueId }).from(occurrences).where(eq(occurrences.eventId, id));
    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(`${server.url}/dashboard/issues/${row.issueId}?projectId=${project.id}`);
    await page.getByTestId("issue-location").waitFor();
    expect(await page.getByTestId("issue-location").innerText()).toContain("throwError (app:///main.js)");
    expect(await page.getByTestId("issue-title").innerText()).toBe("Error: dafuq");
    expect(problems).toEqual([]);
  });

  it("shows a captureMessage event as a message, not as an 'Error' exception (issue 14 item 23)", async () => {
    const capture = loadCaptures("node").find((c) => c.file === "016-message-event.json")!;
    const response = await replayOverHttp(server.url, capture, target());
    expect(response.status).toBe(200);
    const { id } = await response.json();
    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(await screenOf(id));
    await page.getByTestId("message-event").waitFor();
    expect(await page.getByTestId("event-message").innerText()).toBe("Payment provider timeout after 30s");
    expect(await page.getByTestId("exception-type").count()).toBe(0);
    expect(await page.getByTestId("exception-chain").innerText()).not.toMatch(/^Error$/m);
    expect(await page.getByTestId("stack-frame").count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
  /** Issue 37, item 12: the exception screen lists the exception's own tags, not its issue's aggregate. */
  it("lists the exception's own tags, the derived ones included, and none of its issue's other exceptions", async () => {
    const event = (n: number, region: string, handled: boolean) => ({
      event_id: crypto.randomUUID().replaceAll("-", ""),
      platform: "python",
      level: n === 0 ? "fatal" : "error",
      environment: n === 0 ? "production" : "staging",
      release: `shop@1.${n}.0`,
      server_name: `web-${n}`,
      tags: { region, "payment.provider": "stripe" },
      exception: {
        values: [
          {
            type: "TagError",
            value: `tagged ${n}`,
            mechanism: { type: "generic", handled },
            stacktrace: { frames: [{ function: "charge", filename: "shop/payments.py", lineno: 7, in_app: true }] },
          },
        ],
      },
    });
    const [own, other] = [event(0, "eu-west", false), event(1, "us-east", true)];
    for (const body of [own, other]) expect((await sendPayload(server.url, target(), "store", JSON.stringify(body))).status).toBe(200);

    const { page, problems } = await newPage(browser);
    await signInPage(page, session, server.url);
    await page.goto(await screenOf(own.event_id));
    const table = page.getByTestId("exception-tags-table");
    await table.waitFor();
    const rows = (await table.locator("tr").allInnerTexts()).map((row) => row.split(/\t|\n/).filter(Boolean));
    expect(rows).toEqual([
      ["environment", "production"],
      ["release", "shop@1.0.0"],
      ["level", "fatal"],
      ["server_name", "web-0"],
      ["handled", "no"],
      ["region", "eu-west"],
      ["payment.provider", "stripe"],
    ]);
    const text = await table.innerText();
    for (const others of ["us-east", "staging", "shop@1.1.0", "web-1"]) expect(text).not.toContain(others);
    expect(problems).toEqual([]);
  });
});
