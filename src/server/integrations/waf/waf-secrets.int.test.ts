/**
 * Battery G for the AWS WAF credentials: a dump of the database holds no plaintext key id or
 * secret; a sealed value copied to another organization's row does not open; no answer and no
 * log line of the run holds a full AKIA key id or a secret; a wrong SECRETS_KEY stops start-up
 * with a clear message; rotation re-seals with the new key.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../db/client";
import { organization, wafConnections } from "../../db/schema/index";
import { executeRows } from "../../db/execute";
import { InvalidEnvironmentError } from "../../env";
import { parseKeyring } from "../../secrets/keyring";
import { assertSealedSecretsOpen } from "../../secrets/sealed-fields.check";
import { resealSecrets } from "../../secrets/sealed-fields.reseal";
import { createSecretBox, SecretOpenError } from "../../secrets/secret-box";
import { AwsStandIn } from "../../../../test/stand-ins/aws/aws-stand-in";
import { seedProject } from "../../../../test/helpers/seed";
import { TEST_SECRETS_KEY } from "../../../../test/helpers/test-server";
import { triageTenant } from "../../../../test/helpers/triage-seed";
import { keysOf, RecordingSession, seedWafAccount, startWafTestServer, type TestServer } from "../../../../test/helpers/waf-test-server";
import { openWafKeys, sealWafKeys } from "./waf-credentials";

const FULL_KEY_ID = /AKIA[A-Z0-9]{16}/;
const NEW_KEY = "7a".repeat(32);

describe("AWS WAF credentials at rest (battery G)", () => {
  let aws: AwsStandIn;
  let server: TestServer;
  const tenants: { orgId: string; session: RecordingSession; keys: ReturnType<typeof keysOf> }[] = [];
  const secrets: string[] = [];

  beforeAll(async () => {
    aws = await new AwsStandIn().start();
    ({ server } = await startWafTestServer(aws));
    for (const name of ["Sealed A", "Sealed B"]) {
      const seeded = seedWafAccount(aws);
      const tenant = await triageTenant(server, name);
      const session = new RecordingSession(server.url);
      for (const [cookie, value] of tenant.session.cookies) session.cookies.set(cookie, value);
      const keys = keysOf(seeded.account);
      const base = `/api/v1/organizations/${tenant.org.id}/integrations/aws/waf`;
      expect((await session.request(base, { method: "PUT", body: keys })).status).toBe(200);
      await session.request(`${base}/block-list`, { method: "PUT", body: { ipSetId: seeded.blocked.id } });
      await session.request(`${base}/blocks`, { method: "POST", body: { ip: "203.0.113.50" } });
      await session.request(`${base}/ip-sets`);
      await session.query("waf.setup");
      // A refused connect echoes nothing of what was sent either.
      await session.request(base, { method: "PUT", body: { ...keys, secretAccessKey: "C".repeat(40) } });
      tenants.push({ orgId: tenant.org.id, session, keys });
      secrets.push(keys.accessKeyId, keys.secretAccessKey);
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await aws?.close();
  });

  it("stores the key id and secret sealed: a dump of every table holds neither in plaintext", async () => {
    const tables = await executeRows<{ name: string }>(
      server.database.db,
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    expect(tables.map((table) => table.name)).toContain("waf_connections");
    let dump = "";
    for (const { name } of tables) {
      const rows = await executeRows<{ row: string }>(server.database.db, sql`select t::text as row from ${sql.identifier(name)} t`);
      dump += rows.map((row) => row.row).join("\n");
    }
    for (const secret of secrets) expect(dump.includes(secret), "plaintext in the dump").toBe(false);
    expect(dump).not.toMatch(FULL_KEY_ID);
    const [row] = await server.database.db.select().from(wafConnections).where(eq(wafConnections.organizationId, tenants[0]!.orgId));
    expect(row?.secretAccessKeySealed).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(row?.accessKeyIdLast4).toBe(tenants[0]!.keys.accessKeyId.slice(-4));
  });

  it("binds each sealed value to its organization: copied to another organization's row, it does not open", async () => {
    const [a] = await server.database.db.select().from(wafConnections).where(eq(wafConnections.organizationId, tenants[0]!.orgId));
    const box = createSecretBox(parseKeyring(TEST_SECRETS_KEY));
    const sealed = { accessKeyIdSealed: a!.accessKeyIdSealed!, secretAccessKeySealed: a!.secretAccessKeySealed! };
    expect(openWafKeys(box, tenants[0]!.orgId, sealed).secretAccessKey).toBe(tenants[0]!.keys.secretAccessKey);
    expect(() => openWafKeys(box, tenants[1]!.orgId, sealed)).toThrow(SecretOpenError);
    // Swapping the two fields inside one row fails the same way (the field is bound too).
    expect(() =>
      openWafKeys(box, tenants[0]!.orgId, { accessKeyIdSealed: sealed.secretAccessKeySealed, secretAccessKeySealed: sealed.accessKeyIdSealed }),
    ).toThrow(SecretOpenError);

    await server.database.db.update(wafConnections).set(sealed).where(eq(wafConnections.organizationId, tenants[1]!.orgId));
    const b = tenants[1]!;
    const answer = await b.session.request(`/api/v1/organizations/${b.orgId}/integrations/aws/waf/ip-sets`);
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain(tenants[0]!.keys.accessKeyId);
    expect(answer.body.error.message).toBe("The stored AWS credentials cannot be opened with this server's SECRETS_KEY; reconnect the integration");
    const card = await b.session.request(`/api/v1/organizations/${b.orgId}/integrations`);
    expect(card.body[0]).toMatchObject({ status: "failing", lastError: answer.body.error.message });
    // B reconnects, and its own credentials work again.
    expect((await b.session.request(`/api/v1/organizations/${b.orgId}/integrations/aws/waf`, { method: "PUT", body: b.keys })).status).toBe(200);
    expect((await b.session.request(`/api/v1/organizations/${b.orgId}/integrations/aws/waf/ip-sets`)).status).toBe(200);
  });

  it("leaks no full AKIA key id and no secret into any answer or log line of the run", () => {
    const answers = RecordingSession.transcript.join("\n");
    const logs = server.logs.map((line) => JSON.stringify(line)).join("\n");
    expect(RecordingSession.transcript.length).toBeGreaterThan(10);
    expect(server.logs.length).toBeGreaterThan(10);
    for (const text of [answers, logs]) {
      expect(text).not.toMatch(FULL_KEY_ID);
      for (const secret of secrets) expect(text.includes(secret)).toBe(false);
    }
    // The masked form is what answers carry.
    expect(answers).toContain(`…${tenants[0]!.keys.accessKeyId.slice(-4)}`);
  });

  it("rotates: the new key first re-seals every connection; the old key can then be dropped", async () => {
    const counts = await resealSecrets(server.database.db, parseKeyring(`2:${NEW_KEY},${TEST_SECRETS_KEY}`));
    expect(counts.find((count) => count.label === "AWS WAF credentials")).toMatchObject({ rows: 2, values: 4, unopenable: 0 });
    const rows = await server.database.db.select().from(wafConnections);
    for (const row of rows.filter((candidate) => candidate.secretAccessKeySealed)) {
      expect(row.secretAccessKeySealed).toMatch(/^v2:/);
      expect(row.accessKeyIdSealed).toMatch(/^v2:/);
    }
    await assertSealedSecretsOpen(server.database.db, parseKeyring(`2:${NEW_KEY}`));
    await expect(assertSealedSecretsOpen(server.database.db, parseKeyring(TEST_SECRETS_KEY))).rejects.toThrow(InvalidEnvironmentError);
    const newOnly = createSecretBox(parseKeyring(`2:${NEW_KEY}`));
    const a = rows.find((row) => row.organizationId === tenants[0]!.orgId)!;
    expect(
      openWafKeys(newOnly, a.organizationId, { accessKeyIdSealed: a.accessKeyIdSealed!, secretAccessKeySealed: a.secretAccessKeySealed! }).secretAccessKey,
    ).toBe(tenants[0]!.keys.secretAccessKey);
  });
});

describe("a wrong SECRETS_KEY at start-up", () => {
  it("stops the server with a clear message instead of serving undecryptable credentials", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "faultline-waf-key-"));
    const database = createDatabase({ pgliteDataDir: dataDir });
    await database.migrate();
    const { organizationId } = await seedProject(database.db, "wrong-key");
    const box = createSecretBox(parseKeyring(TEST_SECRETS_KEY));
    const keys = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" };
    await database.db.insert(wafConnections).values({
      organizationId,
      externalId: "faultline-x",
      region: "eu-west-1",
      scope: "REGIONAL",
      connectedAt: new Date(),
      ...sealWafKeys(box, organizationId, keys),
    });
    expect((await database.db.select().from(organization)).length).toBe(1);
    await database.close();

    const main = path.join(import.meta.dirname, "../../main.ts");
    const run = spawnSync(process.execPath, ["--import", "tsx", main], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "test",
        SECRETS_KEY: `1:${"99".repeat(32)}`,
        PGLITE_DATA_DIR: dataDir,
        CLIENT_MODE: "none",
        PORT: "0",
        HOST: "127.0.0.1",
      },
      encoding: "utf8",
      timeout: 90_000,
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain("Invalid environment configuration");
    expect(run.stderr).toContain("SECRETS_KEY: cannot open the stored AWS WAF credentials (sealed with key version 1)");
    expect(run.stderr).not.toContain(keys.secretAccessKey);
  }, 120_000);
});
