/**
 * Organization settings → Data & privacy and the project's override in a real browser (issue 35):
 * a rule added and IP storage switched off on the screen are saved, the next event is stored
 * by them, and the project's card shows the count of values scrubbed today; the organization's
 * retention chosen on the card (an impossible number refused there) is what the project inherits.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { occurrences } from "../../src/server/db/schema/index";
import { hasChromium, launchBrowser, newPage } from "../helpers/browser";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createTriageProject, sendEvent, type TriageProject } from "../helpers/triage-seed";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const BUILT_CLIENT = path.resolve(import.meta.dirname, "../../dist/client/index.html");

describe.runIf(hasChromium && existsSync(BUILT_CLIENT))("Data & privacy settings in a real browser (issue 35)", () => {
  let server: TestServer;
  let browser: Browser;
  let session: HttpSession;
  let project: TriageProject;

  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
    browser = await launchBrowser();
    ({ session } = await signUpVerified(server, { name: "Pia Privacy" }));
    await createOrganization(session, "Privacy Org");
    project = await createTriageProject(session, "shop");
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("saves an email rule and IP storage off for the organization, applies them to the next event, and shows the scrubbed count on the project", async () => {
    const { page, problems } = await newPage(browser);
    const { hostname } = new URL(server.url);
    await page.context().addCookies([...session.cookies].map(([name, value]) => ({ name, value, domain: hostname, path: "/" })));
    await page.goto(`${server.url}/settings/organization`);
    const card = page.getByTestId("organization-data-privacy");
    await card.getByTestId("scrubbed-today").getByText("0 values scrubbed today").waitFor();
    await card.getByText("No rules.", { exact: false }).waitFor();

    await card.getByTestId("store-ip-addresses").click();
    await card.getByTestId("add-scrub-rule").click();
    const rule = card.getByTestId("scrub-rule");
    await rule.getByLabel("What to find").selectOption("email");
    await rule.getByLabel("What to put instead").selectOption("replace");
    await rule.getByTestId("scrub-rule-replacement").fill("<email>");
    await card.getByTestId("safe-fields-input").fill("order_ref");
    await card.getByTestId("safe-fields-add").click();
    // Retention: the product default until the organization chooses; 0 days is refused on the card.
    expect(await card.getByTestId("retention-days").inputValue()).toBe("90");
    expect(await card.getByTestId("retention-days").isDisabled()).toBe(true);
    await card.getByTestId("retention-effective").getByText("Now kept: 90 days", { exact: false }).waitFor();
    await card.getByTestId("override-retentionDays").click();
    await card.getByTestId("retention-days").fill("0");
    await card.getByTestId("save-data-settings").click();
    await card.getByText("retentionDays is a whole number of days from 1 to 3650").waitFor();
    expect((await session.query("dataSettings.organization")).data.settings.retentionDays).toBeNull();
    await card.getByTestId("retention-days").fill("30");
    await card.getByTestId("save-data-settings").click();
    await page.getByText("Data settings saved").waitFor();

    const saved = await session.query("dataSettings.organization");
    expect(saved.data.settings.retentionDays).toBe(30);
    expect(saved.data.effective).toEqual({
      retentionDays: 30,
      scrubDefaults: true,
      storeIpAddresses: false,
      sensitiveFields: [],
      safeFields: ["order_ref"],
      rules: [{ type: "email", method: "replace", replacement: "<email>" }],
    });

    const eventId = await sendEvent(server, project, {
      type: "Error",
      value: "mail to ada@example.com failed",
      fn: "notify",
      user: { id: "u1", ip_address: "203.0.113.5" },
    });
    const [row] = await server.database.db.select().from(occurrences).where(eq(occurrences.eventId, eventId));
    const stored = JSON.stringify(row.data);
    expect(stored).toContain("mail to <email> failed");
    expect(stored).not.toContain("ada@example.com");
    expect(stored).not.toContain("203.0.113.5");

    // The project inherits the organization's settings and counts what they scrubbed: the email, the user's IP and the request's client IP.
    expect((await session.query("dataSettings.project", { projectId: project.id })).data.scrubbedToday).toBe(3);
    await page.goto(`${server.url}/dashboard/projects/${project.id}/settings`);
    const projectCard = page.getByTestId("project-data-privacy");
    await projectCard.getByTestId("scrubbed-today").getByText("3 values scrubbed today").waitFor();
    expect(await projectCard.getByTestId("override-rules").getAttribute("data-state")).toBe("unchecked");
    expect(await projectCard.getByTestId("store-ip-addresses").getAttribute("data-state")).toBe("unchecked");
    // The project inherits the organization's 30 days until it overrides them.
    expect(await projectCard.getByTestId("override-retentionDays").getAttribute("data-state")).toBe("unchecked");
    expect(await projectCard.getByTestId("retention-days").inputValue()).toBe("30");
    await projectCard.getByTestId("retention-effective").getByText("Now kept: 30 days", { exact: false }).waitFor();
    expect(problems).toEqual([]);
  });
});
