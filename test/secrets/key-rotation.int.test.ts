/**
 * Key rotation covers every sealed family (issue 31, finding 11): values of each family are sealed
 * under key 1 — an AWS WAF connection, a rule's webhook and Slack actions (URLs and the signing
 * secret), a linked Google account's tokens. Without key 1 the start-up check refuses, naming each
 * family; `npm run secrets:reseal` (the real script, as a process) with `2:<new>,1:<old>` re-seals
 * them all; then the app on key 2 alone delivers the webhook and Slack alerts to loopback
 * receivers and answers the linked account's access token.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifySignature } from "../../src/server/alerts/channels/webhook";
import { createDatabase, type Database } from "../../src/server/db/client";
import * as schema from "../../src/server/db/schema/index";
import { executeRows } from "../../src/server/db/execute";
import { InvalidEnvironmentError } from "../../src/server/env";
import { openWafKeys, sealWafKeys } from "../../src/server/integrations/waf/waf-credentials";
import { parseKeyring } from "../../src/server/secrets/keyring";
import { assertSealedSecretsOpen } from "../../src/server/secrets/sealed-fields.check";
import { SEALED_FAMILIES } from "../../src/server/secrets/sealed-fields";
import { resealSecrets } from "../../src/server/secrets/sealed-fields.reseal";
import { createSecretBox } from "../../src/server/secrets/secret-box";
import { startWebhookReceiver, until, type WebhookReceiver } from "../alerts/alert-kit";
import { AUTH, currentUser } from "../auth/auth-kit";
import { googleDance, startOidcStandIn, type OidcStandIn } from "../auth/oidc-stand-in";
import { HttpSession } from "../helpers/http-session";
import { runSentryNode } from "../helpers/run-sentry-node";
import { TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-database";
import { startTestServer, TEST_SECRETS_KEY, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified } from "../helpers/test-users";

const ROOT = path.resolve(import.meta.dirname, "../..");
const OLD_KEY = TEST_SECRETS_KEY;
const NEW_ONLY = `2:${"c3".repeat(32)}`;
const ROTATING = `${NEW_ONLY},${OLD_KEY}`;
const WAF_KEYS = { accessKeyId: "AKIAIOSFODNN7ROTATE1", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYROTATEKEY" };

/**
 * The suite's database, closed while the reseal script has it: a PGlite data dir (one process at
 * a time) or a throwaway PostgreSQL database.
 */
async function openSuiteDatabase() {
  const name = `faultline_rotation_${Date.now().toString(36)}`;
  const dataDir = TEST_DATABASE_URL ? "" : mkdtempSync(path.join(tmpdir(), "faultline-rotation-"));
  let url: string | undefined;
  if (TEST_DATABASE_URL) {
    const admin = createDatabase({ databaseUrl: TEST_DATABASE_URL, pgliteDataDir: "" });
    await admin.db.execute(sql.raw(`create database ${name}`));
    await admin.close();
    const parsed = new URL(TEST_DATABASE_URL);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
  }
  const open = async (): Promise<TestDatabase> => {
    const database: Database = createDatabase({ databaseUrl: url, pgliteDataDir: dataDir });
    await database.migrate();
    return { ...database, url, destroy: () => database.close() };
  };
  return {
    open,
    /** What the reseal script's environment names the database by. */
    env: url ? { DATABASE_URL: url } : { PGLITE_DATA_DIR: dataDir },
    async drop() {
      if (!TEST_DATABASE_URL) return rmSync(dataDir, { recursive: true, force: true });
      const admin = createDatabase({ databaseUrl: TEST_DATABASE_URL, pgliteDataDir: "" });
      await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await admin.close();
    },
  };
}

describe("key rotation re-seals every sealed family", () => {
  let suite: Awaited<ReturnType<typeof openSuiteDatabase>>;
  let database: TestDatabase;
  let server: TestServer | null = null;
  let receiver: WebhookReceiver;
  let oidc: OidcStandIn;
  let env: Record<string, string>;
  let project: { id: string; dsn: string };
  let organizationId: string;
  let webhookSecret: string;
  let google: { browser: HttpSession; userId: string; accessToken: string };

  const googleAccountId = async () =>
    (await database.db.select({ id: schema.account.id }).from(schema.account).where(eq(schema.account.userId, google.userId)))[0]!.id;
  const getAccessToken = async () => google.browser.request(`${AUTH}/get-access-token`, { body: { accountId: await googleAccountId() } });

  beforeAll(async () => {
    suite = await openSuiteDatabase();
    database = await suite.open();
    receiver = await startWebhookReceiver();
    oidc = await startOidcStandIn();
    env = { ...oidc.env, OUTBOUND_ALLOW: `127.0.0.1:${receiver.port}`, ALERT_JOB_POLL_MS: "100" };
    server = await startTestServer({ database, env: { ...env, SECRETS_KEY: OLD_KEY } });

    const owner = await signUpVerified(server, { name: "Rotation Owner" });
    organizationId = (await createOrganization(owner.session, "Rotation Org")).id;
    project = (await owner.session.mutation("project.create", { name: "Rotation", platform: "NODE_JS" })).data;
    const rule = await owner.session.request(`/api/v1/organizations/${organizationId}/projects/${project.id}/alert-rules`, {
      method: "POST",
      body: {
        name: "Rotation hooks",
        trigger: { type: "new_issue" },
        actions: [
          { type: "webhook", url: `http://127.0.0.1:${receiver.port}/webhook` },
          { type: "slack", url: `http://127.0.0.1:${receiver.port}/slack` },
        ],
      },
    });
    expect(rule.status, rule.text).toBe(201);
    webhookSecret = rule.body.actions[0].secret;

    await database.db.insert(schema.wafConnections).values({
      organizationId,
      externalId: "faultline-rotation",
      region: "eu-west-1",
      scope: "REGIONAL",
      connectedAt: new Date(),
      ...sealWafKeys(createSecretBox(parseKeyring(OLD_KEY)), organizationId, WAF_KEYS),
    });

    oidc.next();
    const browser = new HttpSession(server.url);
    expect((await googleDance(browser)).done.status).toBe(302);
    google = { browser, userId: (await currentUser(browser))!.id, accessToken: "" };
    const answer = await getAccessToken();
    expect(answer.status, answer.text).toBe(200);
    google.accessToken = answer.body.accessToken;
    expect(google.accessToken).toBeTruthy();

    await server.close();
    server = null;
  }, 240_000);

  afterAll(async () => {
    await server?.close();
    await database?.close();
    await suite?.drop();
    await receiver?.close();
    await oidc?.stop();
  });

  /** Every stored sealed value's key version, per family label. */
  const versionsByFamily = async () => {
    const found: Record<string, string[]> = {};
    for (const family of SEALED_FAMILIES) {
      for (const field of family.sealed) {
        const rows = await executeRows<{ version: string }>(
          database.db,
          sql`select distinct substring(${field.column} from '^v([0-9]+):') as version from ${family.table} where ${field.column} ~ '^v[0-9]+:'`,
        );
        found[family.label] = [...new Set([...(found[family.label] ?? []), ...rows.map((row) => row.version)])].sort();
      }
    }
    return found;
  };

  it("refuses to start without key 1 before the reseal, naming each family", async () => {
    expect(await versionsByFamily()).toEqual({
      "AWS WAF credentials": ["1"],
      "alert action URLs and signing secrets": ["1"],
      "OAuth tokens of linked accounts": ["1"],
    });
    const refusal = await assertSealedSecretsOpen(database.db, parseKeyring(NEW_ONLY)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidEnvironmentError);
    const { issues } = refusal as InvalidEnvironmentError;
    expect(issues).toEqual([
      expect.stringContaining("SECRETS_KEY: 2 stored AWS WAF credentials value(s) are sealed with key version 1, which SECRETS_KEY does not list"),
      expect.stringContaining("SECRETS_KEY: 3 stored alert action URLs and signing secrets value(s) are sealed with key version 1"),
      expect.stringContaining("SECRETS_KEY: 3 stored OAuth tokens of linked accounts value(s) are sealed with key version 1"),
    ]);
    await assertSealedSecretsOpen(database.db, parseKeyring(ROTATING));
  });

  it("`npm run secrets:reseal` re-seals them all, and the app on key 2 alone delivers the alerts and answers the token", async () => {
    await database.close();
    const run = await promisify(execFile)(process.execPath, ["--import", "tsx", path.join(ROOT, "src/server/secrets/reseal-secrets.ts")], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NODE_ENV: "test", SECRETS_KEY: ROTATING, ...suite.env },
      timeout: 90_000,
    });
    expect(run.stdout).toContain("AWS WAF credentials: re-sealed 2 value(s) in 1 row(s) with key version 2");
    expect(run.stdout).toContain("alert action URLs and signing secrets: re-sealed 3 value(s) in 2 row(s) with key version 2");
    expect(run.stdout).toContain("OAuth tokens of linked accounts: re-sealed 3 value(s) in 1 row(s) with key version 2");

    database = await suite.open();
    expect(Object.values(await versionsByFamily())).toEqual([["2"], ["2"], ["2"]]);
    const newOnly = parseKeyring(NEW_ONLY);
    await assertSealedSecretsOpen(database.db, newOnly);
    // Nothing is left under an older key: a second run changes nothing.
    expect((await resealSecrets(database.db, newOnly)).map(({ rows, unopenable }) => rows + unopenable)).toEqual([0, 0, 0]);
    const [waf] = await database.db.select().from(schema.wafConnections).where(eq(schema.wafConnections.organizationId, organizationId));
    expect(
      openWafKeys(createSecretBox(newOnly), organizationId, { accessKeyIdSealed: waf!.accessKeyIdSealed!, secretAccessKeySealed: waf!.secretAccessKeySealed! }),
    ).toEqual(WAF_KEYS);

    server = await startTestServer({ database, env: { ...env, SECRETS_KEY: NEW_ONLY } });
    // The same browser (its session cookie) against the restarted app's new port.
    const browser = new HttpSession(server.url);
    for (const [cookie, value] of google.browser.cookies) browser.cookies.set(cookie, value);
    google.browser = browser;
    const token = await getAccessToken();
    expect(token.status, token.text).toBe(200);
    expect(token.body.accessToken).toBe(google.accessToken);

    await runSentryNode(project.dsn.replace(/localhost:\d+/, new URL(server.url).host), 1, "plain", { environment: "production" });
    const hooks = (path: string) => receiver.requests.filter((request) => request.path === path);
    await until(() => hooks("/webhook").length >= 1 && hooks("/slack").length >= 1, 20_000, "webhook and slack after rotation");
    const [hook] = hooks("/webhook");
    expect(verifySignature(webhookSecret, hook!.raw, String(hook!.headers["faultline-signature"]))).toBe(true);
    expect(hook!.json).toMatchObject({ type: "new_issue", rule: { name: "Rotation hooks" }, project: { id: project.id } });
    expect(hooks("/slack")[0]!.json.blocks).toBeDefined();
    // The log agrees: every attempt was sent, none failed to open its URL or secret.
    await until(
      async () => {
        const rows = await executeRows<{ channel: string; status: string }>(database.db, sql`select channel, status from alert_notifications order by channel`);
        const sent = rows.filter((row) => row.status === "sent").map((row) => row.channel);
        return rows.length === sent.length && sent.includes("webhook") && sent.includes("slack");
      },
      10_000,
      "both notifications sent",
    );
  }, 240_000);
});
