import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issues, occurrences } from "../../src/server/db/schema/index";
import { envelopeOf, loadPayload, sendPayload } from "../helpers/sdk-payloads";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

/**
 * Public payloads of nine official SDKs (sources and licences: test/fixtures/sdk-payloads/README.md),
 * replayed over HTTP through the envelope and store endpoints. Each case states what a Sentry user
 * expects to see: title, culprit, level, environment, and the fields the event-fidelity issue lists.
 */
interface Case {
  file: string;
  endpoint: "envelope" | "store";
  header?: Record<string, unknown>;
  /** Fields set on the published payload before sending (each use says why). */
  set?: Record<string, unknown>;
  title: string;
  culprit: string | null;
  level: string;
  /** The environment as stored (null: the SDK sent none) and the bucket it counts in. */
  environment: string | null;
  bucket: "PRODUCTION" | "STAGING" | "DEVELOPMENT";
  platform: string;
  /** The SDK's own timestamp when it was outside the accepted window (stored at receive time instead). */
  originalTimestamp?: string;
  check?: (document: Record<string, any>) => void;
}

const CASES: Case[] = [
  {
    file: "cocoa-converted-event.json",
    endpoint: "envelope",
    title: "EXC_BAD_ACCESS: doCrash > DRHT > objectAtIndex:",
    // Address-only in-app frame (its function is "<redacted>"), read as `0x… in binary`.
    culprit: "0x00000001001be378 in CrashLibiOS",
    level: "fatal",
    environment: null,
    bucket: "PRODUCTION",
    platform: "cocoa",
    originalTimestamp: "2017-05-17T16:33:05.000Z",
    check: (doc) => {
      const frames = doc.exceptions[0].frames;
      expect(frames).toHaveLength(26);
      expect(frames.at(-1)).toMatchObject({
        instructionAddr: expect.stringMatching(/^0x/),
        imageAddr: expect.stringMatching(/^0x/),
        package: expect.any(String),
      });
      expect(doc.debugImages.length).toBeGreaterThan(100);
      expect(doc.debugImages[0]).toMatchObject({
        name: expect.stringMatching(/CrashProbeiOS\.app\/CrashProbeiOS$/),
        address: "0x0000000100088000",
        size: 65536,
        debugId: "2C656702-AA16-3E5F-94D9-D4430DA53398",
      });
      expect(doc.threads).toHaveLength(9);
      expect(doc.threads[0]).toMatchObject({ id: "0", crashed: true });
      expect(doc.threads[0].frames.length).toBeGreaterThan(0);
      expect(doc.threads[1].frames).toEqual([]);
      expect(doc.location).toBe("0x00000001001be378 in CrashLibiOS");
    },
  },
  {
    file: "native-macos-event.json",
    endpoint: "envelope",
    header: { sent_at: new Date().toISOString() },
    // Synthetic, and no frame to name: Sentry falls back to type and value.
    title: "SIGSEGV: Segfault",
    culprit: "test-transaction",
    level: "fatal",
    environment: "development",
    bucket: "DEVELOPMENT",
    platform: "native",
    originalTimestamp: "2021-03-24T09:46:08.321Z",
    check: (doc) => {
      expect(doc.exceptions[0].mechanism).toMatchObject({ type: "signalhandler", synthetic: true, handled: false });
      expect(doc.debugImages).toEqual([
        expect.objectContaining({ name: "/Users/swatinem/Coding/sentry-native/build/sentry_example", address: "0x1060b2000", size: 16384, type: "macho" }),
        expect.objectContaining({ name: "/Users/swatinem/Coding/sentry-native/build/libsentry.dylib" }),
        expect.objectContaining({ name: "/usr/lib/libSystem.B.dylib", debugId: "83503ce0-32b1-36db-a4f0-3cc6b7bcf50a" }),
      ]);
      expect(doc.user).toMatchObject({ id: "42", username: "some_name" });
    },
  },
  {
    file: "native-macos-event-symbolicated.json",
    endpoint: "envelope",
    // Synthetic crash: titled by the crashing in-app function, not "SIGSEGV: Segfault".
    title: "trigger_crash",
    culprit: "test-transaction",
    level: "fatal",
    environment: "development",
    bucket: "DEVELOPMENT",
    platform: "native",
    originalTimestamp: "2021-03-24T09:46:08.321Z",
    check: (doc) => {
      expect(doc.location).toBe("trigger_crash");
      expect(doc.exceptions[0].frames.map((f: { function: string }) => f.function)).toEqual(["start", "main", "trigger_crash"]);
    },
  },
  {
    file: "elixir-event-7x.json",
    endpoint: "store",
    title: "UndefinedFunctionError: function Sentry.Event.not_a_function/3 is undefined or private",
    culprit: "Sentry.Event.not_a_function/3",
    level: "error",
    environment: null,
    bucket: "PRODUCTION",
    platform: "elixir",
    // Sent without an offset; read as UTC although the server runs under America/New_York.
    originalTimestamp: "2019-10-23T12:00:00.000Z",
    check: (doc) => {
      // The event-level stacktrace belongs to the one exception (Relay's rule).
      expect(doc.exceptions[0].frames).toHaveLength(6);
      expect(doc.stacktrace).toEqual([]);
      expect(doc.exceptions[0].frames[5]).toMatchObject({ function: "Sentry.Event.not_a_function/3", vars: { arg0: "1", arg1: "2", arg2: "3" } });
    },
  },
  {
    file: "java-sentry_event.json",
    endpoint: "envelope",
    title: "32a4ff49-f989-4698-964e-d0f7904026c4: c27490af-12c7-4986-a039-0093c309e395",
    culprit: "e7aea178-e3a6-46bc-be17-38a3ea8920b6",
    level: "error",
    environment: "89204175-e462-4628-8acb-3a7fa8d8da7d",
    bucket: "DEVELOPMENT",
    // A platform Relay does not know is stored as "other".
    platform: "other",
    originalTimestamp: "1942-07-09T12:55:34.000Z",
    check: (doc) => {
      expect(doc.dist).toBe("27022a08-aace-40c6-8d0a-358a27fcaa7a");
      expect(doc.modules).toEqual({ "01c8a4f6-8861-4575-a10e-5ed3fba7c794": "b4083431-47e9-433a-b58f-58796f63e27c" });
      // ip_address is not an IP address: dropped, never the client IP.
      expect(doc.user.ip).toBeNull();
      expect(doc.request.clientIp).toBeNull();
      expect(doc.user.data).toEqual({ "dc2813d0-0f66-4a3f-a995-71268f61a8fa": "991659ad-7c59-4dd3-bb89-0bd5c74014bd" });
      expect(doc.request).toMatchObject({
        cookies: { "d84f4cfc-5310-4818-ad4f-3f8d22ceaca8": "[Filtered]" },
        data: { "d9d709db-b666-40cc-bcbb-093bb12aad26": "1631d0e6-96b7-4632-85f8-ef69e8bcfb16" },
        env: { "6d569c89-5d5e-40e0-a4fc-109b20a53778": "ccadf763-44e4-475c-830c-de6ba0dbd202" },
      });
      expect(doc.exceptions[0].mechanism).toMatchObject({
        description: "683d3710-ab97-459e-a219-3b72b98aa370",
        helpLink: "bcbf2733-0b75-4491-b837-18f8d63099a5",
      });
      expect(doc.exceptions[0].frames[0]).toMatchObject({
        instructionAddr: "19864a78-2466-461f-9f0b-93a5c9ae7622",
        symbolAddr: "180e12cd-1fa8-405d-8dd8-e87b33fa2eb0",
        imageAddr: "27ec1be5-e8a1-485c-b020-f4d9f80a6624",
        package: "0fc25e57-4aa7-4085-aa0c-25ac7958e6dd",
        rawFunction: "f33035a4-0cf0-453d-b6f4-d7c27e9af924",
        platform: "430a10fb-0bc5-449f-b471-6786db7be722",
      });
      expect(doc.debugImages[0]).toMatchObject({ debugId: "8c653f5a-3418-4823-ba91-29a84c9c1235", codeId: "01230ece-f729-4af4-8b48-df74700aa4bf" });
      expect(doc.threads[0]).toMatchObject({ name: "cf31c7e1-22ce-4543-ba56-ca524c53a5ed", crashed: false });
    },
  },
  {
    file: "go-event-000.json",
    endpoint: "envelope",
    // The device's clock was in 2009 when it sent the event: corrected by sent_at, as Relay does.
    header: { event_id: "0a0b0c0d0e0f40418283848586878889", sent_at: "2009-11-10T23:00:10Z" },
    title: "test",
    culprit: null,
    level: "error",
    environment: null,
    bucket: "PRODUCTION",
    platform: "other",
    check: (doc) => {
      expect(doc.timestampAdjustment).toBe("clock_drift");
      expect(doc.originalTimestamp).toBe("2009-11-10T23:00:00.000Z");
    },
  },
  {
    file: "cocoa-cordova-exception.json",
    endpoint: "store",
    // The published payload has no timestamp; raven-js stamps the event when it sends it, right
    // after its last breadcrumb (2018-03-23T11:16:51.650Z): a 2018 event, as that SDK sent it.
    set: { timestamp: 1521803811.65 },
    title: "Error: dafuq",
    // raven-js sent its own culprit: it wins, the crashing frame is kept as the location.
    culprit: "app:///main.js",
    level: "error",
    environment: null,
    bucket: "PRODUCTION",
    platform: "javascript",
    originalTimestamp: "2018-03-23T11:16:51.650Z",
    check: (doc) => {
      expect(doc.location).toBe("throwError (app:///main.js)");
      // Breadcrumbs from 2018 keep their own time.
      expect(doc.breadcrumbs[0].timestamp).toMatch(/^2018-03-23T/);
    },
  },
  {
    file: "cocoa-raven-rejectedpromise.json",
    endpoint: "store",
    title: "Boom promise",
    culprit: "captureException (app:///index.bundle?platform=ios&dev=true&minify=false)",
    level: "error",
    environment: null,
    bucket: "PRODUCTION",
    platform: "javascript",
    originalTimestamp: "2017-10-24T10:20:16.888Z",
    check: (doc) => {
      expect(doc.exceptions).toEqual([]);
      expect(doc.stacktrace).toHaveLength(11);
    },
  },
  {
    file: "electron-main-error.json",
    endpoint: "envelope",
    title: "Error: Some main error",
    culprit: "thrower (app:///src/main.js)",
    level: "fatal",
    environment: "development",
    bucket: "DEVELOPMENT",
    platform: "node",
    // `timestamp: 0`: the epoch is never stored (rollups must not land on 1970).
    originalTimestamp: "1970-01-01T00:00:00.000Z",
  },
  {
    file: "electron-renderer-error.json",
    endpoint: "envelope",
    title: "Error: Some renderer error",
    culprit: "thrower (app:///src/index.html)",
    level: "error",
    environment: "development",
    bucket: "DEVELOPMENT",
    platform: "javascript",
    originalTimestamp: "1970-01-01T00:00:00.000Z",
  },
];

describe("public SDK payloads over HTTP", () => {
  let server: TestServer;
  let session: HttpSession;
  let project: { id: string; number: number; apiKey: string };
  const originalTz = process.env.TZ;
  const eventIds = new Map<string, string>();
  const statuses = new Map<string, number>();
  let startedAt: Date;

  beforeAll(async () => {
    // The server's zone must not shift offset-less timestamps (the Elixir case).
    process.env.TZ = "America/New_York";
    server = await startTestServer();
    ({ session } = await signUpVerified(server));
    await createOrganization(session);
    project = (await session.mutation("project.create", { name: "Every SDK", platform: "OTHER" })).data;
    startedAt = new Date();
    for (const c of CASES) {
      const event = { ...loadPayload(c.file), ...c.set };
      const body = c.endpoint === "envelope" ? envelopeOf(event, c.header) : JSON.stringify(event);
      const response = await sendPayload(server.url, { projectNumber: project.number, publicKey: project.apiKey }, c.endpoint, body);
      statuses.set(c.file, response.status);
      eventIds.set(c.file, (await response.json()).id);
    }
  });
  afterAll(async () => {
    process.env.TZ = originalTz;
    await server.close();
  });

  it("covers at least ten payloads from the SDKs' own repositories and accepts every one", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(10);
    expect(Object.fromEntries(statuses)).toEqual(Object.fromEntries(CASES.map((c) => [c.file, 200])));
  });

  it("counts an event without an environment in PRODUCTION, in the issue filter as in the rollups", async () => {
    const titlesIn = async (bucket: string) =>
      ((await session.query("issue.list", { projectId: project.id, environments: [bucket], size: 100 })).data.items as { title: string }[]).map((i) => i.title);
    const unnamed = CASES.filter((c) => c.environment === null).map((c) => c.title);
    const production = await titlesIn("PRODUCTION");
    const development = await titlesIn("DEVELOPMENT");
    for (const title of unnamed) {
      expect(production).toContain(title);
      expect(development).not.toContain(title);
    }
    expect(production).not.toContain("Error: Some main error");
    expect(development).toContain("Error: Some main error");
  });

  it.each(CASES.map((c) => [c.file, c] as const))("%s: title, culprit, level, environment and fields", async (file, c) => {
    const [row] = await server.database.db
      .select()
      .from(occurrences)
      .where(and(eq(occurrences.projectId, project.id), eq(occurrences.eventId, eventIds.get(file)!)));
    expect(row, `${file} stored`).toBeDefined();
    const [issue] = await server.database.db.select().from(issues).where(eq(issues.id, row.issueId));
    expect(issue.title).toBe(c.title);
    expect(issue.culprit).toBe(c.culprit);
    expect(issue.level).toBe(c.level);
    expect(row.level).toBe(c.level);
    expect(row.environment).toBe(c.environment);
    expect(row.environmentBucket).toBe(c.bucket);
    expect(issue.environments).toEqual(c.environment ? [c.environment] : []);
    expect(row.platform).toBe(c.platform);
    // Every stored time is within the accepted window, never 1970 or 1942.
    expect(row.timestamp.getTime()).toBeGreaterThan(startedAt.getTime() - 60_000);
    expect(row.timestamp.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
    const doc = row.data as Record<string, any>;
    if (c.originalTimestamp) expect(doc.originalTimestamp).toBe(c.originalTimestamp);
    c.check?.(doc);
  });
});
