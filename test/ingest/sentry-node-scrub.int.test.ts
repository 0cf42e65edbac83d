/**
 * Server-side scrubbing (issue 35) end to end: the real @sentry/node SDK sends events carrying a
 * password, card numbers, an Authorization header and IP addresses; what is stored is what the
 * organization's and project's data settings say, the count of scrubbed values grows, and two
 * events differing only in a scrubbed card number are one issue.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issues, occurrences, scrubDailyCounts } from "../../src/server/db/schema/index";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const run = promisify(execFile);
const PROGRAM = path.join(import.meta.dirname, "sentry-node-scrub-program.mjs");

interface SentEvent {
  message: string;
  extra?: Record<string, unknown>;
  user?: Record<string, unknown>;
  request?: Record<string, unknown>;
}

async function sendWithSdk(dsn: string, events: SentEvent[]): Promise<string[]> {
  const { stdout } = await run(process.execPath, [PROGRAM, dsn, JSON.stringify(events)], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}").ids;
}

const CARDS = ["4111 1111 1111 1111", "5500-0055-5555-5559"];
const USER_IP = "203.0.113.77";
const FORWARDED_IP = "198.51.100.42";

/** A checkout failure as an app would report it; only the card differs between the two. */
const checkoutEvent = (card: string): SentEvent => ({
  message: `Payment declined for card ${card}`,
  extra: { password: "hunter2", auth_mode: "oauth", customer: "customer cus_Q8x7Zk21 retried" },
  user: { id: "user-7", ip_address: USER_IP },
  request: {
    url: "https://shop.test/checkout?step=pay",
    method: "POST",
    headers: { Authorization: "Bearer sk_live_secret", "X-Forwarded-For": FORWARDED_IP, Accept: "application/json" },
    env: { REMOTE_ADDR: FORWARDED_IP },
  },
});

describe("scrubbing a real @sentry/node SDK's events", () => {
  let server: TestServer;
  let session: HttpSession;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ session } = await signUpVerified(server));
    orgId = (await createOrganization(session, "Scrubbed")).id;
  });
  afterAll(() => server.close());

  async function newProject(name: string) {
    const { data } = await session.mutation("project.create", { name, platform: "NODE_JS" });
    return data as { id: string; dsn: string };
  }

  const stored = async (projectId: string) => {
    const rows = await server.database.db.select().from(occurrences).where(eq(occurrences.projectId, projectId));
    // The document as stored (jsonText parses it on read; its text again to search it whole).
    return rows.map((row) => ({ row, data: row.data as Record<string, any>, text: JSON.stringify(row.data) }));
  };

  it("stores events scrubbed as configured, hashes a pattern the same way twice, keeps safe fields, and groups by the scrubbed text", async () => {
    const project = await newProject("checkout");
    const put = await session.request(`/api/v1/organizations/${orgId}/data-settings`, {
      method: "PUT",
      body: { rules: [{ type: "pattern", pattern: "cus_[A-Za-z0-9]+", method: "hash" }] },
    });
    expect(put.status, put.text).toBe(200);
    const projectPut = await session.request(`/api/v1/organizations/${orgId}/projects/${project.id}/data-settings`, {
      method: "PUT",
      body: { safeFields: ["auth_mode"] },
    });
    expect(projectPut.status, projectPut.text).toBe(200);

    const ids = await sendWithSdk(project.dsn, CARDS.map(checkoutEvent));
    expect(ids).toHaveLength(2);
    const events = await stored(project.id);
    expect(events).toHaveLength(2);
    const hashes = new Set<string>();
    for (const { data, text, row } of events) {
      for (const card of CARDS) expect(text).not.toContain(card);
      expect(text).not.toContain("hunter2");
      expect(text).not.toContain("sk_live_secret");
      expect(data.message).toBe("Payment declined for card [Filtered]");
      expect(row.message).toBe("Payment declined for card [Filtered]");
      expect(data.extra.password).toBe("[Filtered]");
      expect(data.extra.auth_mode).toBe("oauth");
      expect(data.request.headers.Authorization).toBe("[Filtered]");
      // IP addresses are kept by default.
      expect(data.user.ip).toBe(USER_IP);
      const [, hash] = /^customer ([0-9a-f]{16}) retried$/.exec(data.extra.customer) ?? [];
      expect(hash).toBeDefined();
      hashes.add(hash);
    }
    expect(hashes.size).toBe(1);
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain("cus_Q8x7Zk21");

    // One defect, one issue: the card numbers that differed were scrubbed before grouping.
    const projectIssues = await server.database.db.select().from(issues).where(eq(issues.projectId, project.id));
    expect(projectIssues).toHaveLength(1);
    expect(projectIssues[0].eventCount).toBe(2);

    // Per event: the card in the message and in the SDK's synthetic exception value, the password and the
    // hashed customer (the Authorization header is filtered before, by normalisation, and not counted again).
    const [count] = await server.database.db.select().from(scrubDailyCounts).where(eq(scrubDailyCounts.projectId, project.id));
    expect(count.count).toBe(8);
    const answer = await session.request(`/api/v1/organizations/${orgId}/projects/${project.id}/data-settings`);
    expect(answer.body.scrubbedToday).toBe(8);
  });

  it("with storeIpAddresses false stores no IP address anywhere, and applies a change to the very next event", async () => {
    const project = await newProject("no-ips");
    await sendWithSdk(project.dsn, [checkoutEvent(CARDS[0])]);
    expect((await stored(project.id))[0].text).toContain(USER_IP);

    const put = await session.request(`/api/v1/organizations/${orgId}/projects/${project.id}/data-settings`, {
      method: "PUT",
      body: { storeIpAddresses: false },
    });
    expect(put.status, put.text).toBe(200);
    const [id] = await sendWithSdk(project.dsn, [
      { ...checkoutEvent(CARDS[1]), message: `Payment declined from ${USER_IP}`, user: { id: "u", ip_address: "{{auto}}" } },
    ]);
    const event = (await stored(project.id)).find((e) => e.row.eventId === id)!;
    for (const ip of [USER_IP, FORWARDED_IP, "127.0.0.1", "::1"]) expect(event.text).not.toContain(ip);
    expect(event.data.user.ip).toBeNull();
    expect(event.data.request.clientIp).toBeNull();
    expect(event.data.message).toBe("Payment declined from [Filtered]");
  });
});
