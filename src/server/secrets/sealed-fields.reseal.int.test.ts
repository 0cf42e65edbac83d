/**
 * The reseal over the registry: rows past one batch are all re-sealed, a value no key opens (a
 * token copied from another user's row) is counted and left as it is, a plaintext token from
 * before sealing is not touched, and the start-up check still names what was left on the old key.
 */
import { randomUUID } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertActionSecretContext } from "../alerts/alert-action-secrets";
import { oauthTokenContext } from "../auth/oauth-token-sealing";
import { account, alertActions, alertRules, user } from "../db/schema/index";
import { InvalidEnvironmentError } from "../env";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import { parseKeyring } from "./keyring";
import { assertSealedSecretsOpen } from "./sealed-fields.check";
import { resealSecrets } from "./sealed-fields.reseal";
import { createSecretBox } from "./secret-box";

const KEY_1 = `1:${"1f".repeat(32)}`;
const KEY_2 = `2:${"2e".repeat(32)}`;
const ACTIONS = 450;

describe("resealSecrets", () => {
  let database: TestDatabase;
  let projectId: string;
  const users: string[] = [];
  const old = createSecretBox(parseKeyring(KEY_1));

  beforeAll(async () => {
    database = await createTestDatabase();
    const seeded = await seedProject(database.db, "reseal");
    projectId = seeded.projectId;
    const [rule] = await database.db
      .insert(alertRules)
      .values({ organizationId: seeded.organizationId, projectId, name: "Many hooks", triggerType: "new_issue", trigger: '{"type":"new_issue"}' })
      .returning();
    const actions = Array.from({ length: ACTIONS }, (_, index) => {
      const id = randomUUID();
      return {
        id,
        organizationId: seeded.organizationId,
        projectId,
        ruleId: rule!.id,
        position: index,
        type: "webhook",
        urlSealed: old.seal(`http://127.0.0.1:9/hook/${index}`, alertActionSecretContext(projectId, id, "url")),
        signingSecretSealed: old.seal(`whsec_${index}`, alertActionSecretContext(projectId, id, "signingSecret")),
      };
    });
    await database.db.insert(alertActions).values(actions);

    for (const name of ["Ada", "Bob"]) {
      const [row] = await database.db
        .insert(user)
        .values({ name, email: `${name.toLowerCase()}-${randomUUID()}@example.com` })
        .returning();
      users.push(row!.id);
    }
    const [ada, bob] = users as [string, string];
    const adaAccess = old.seal("ada-access", oauthTokenContext(ada, "accessToken"));
    await database.db.insert(account).values([
      // A refresh token from before sealing: no key is needed to read it, so the reseal leaves it.
      { accountId: "g-ada", providerId: "google", userId: ada, accessToken: adaAccess, refreshToken: "ada-legacy-plaintext" },
      // Ada's sealed token copied into Bob's row does not open there.
      {
        accountId: "g-bob",
        providerId: "google",
        userId: bob,
        accessToken: adaAccess,
        refreshToken: old.seal("bob-refresh", oauthTokenContext(bob, "refreshToken")),
      },
    ]);
  }, 120_000);
  afterAll(async () => {
    await database?.destroy();
  });

  it("re-seals every row past the batch size, counts what no key opens, and leaves plaintext alone", async () => {
    const counts = await resealSecrets(database.db, parseKeyring(`${KEY_2},${KEY_1}`));
    expect(counts).toEqual([
      { label: "AWS WAF credentials", rows: 0, values: 0, unopenable: 0 },
      { label: "alert action URLs and signing secrets", rows: ACTIONS, values: 2 * ACTIONS, unopenable: 0 },
      { label: "OAuth tokens of linked accounts", rows: 2, values: 2, unopenable: 1 },
    ]);
    const fresh = createSecretBox(parseKeyring(KEY_2));
    const stored = await database.db.select().from(alertActions).orderBy(alertActions.position);
    expect(stored.filter((row) => row.urlSealed!.startsWith("v2:") && row.signingSecretSealed!.startsWith("v2:"))).toHaveLength(ACTIONS);
    expect(fresh.open(stored[ACTIONS - 1]!.urlSealed!, alertActionSecretContext(projectId, stored[ACTIONS - 1]!.id, "url"))).toBe(
      `http://127.0.0.1:9/hook/${ACTIONS - 1}`,
    );

    const [ada, bob] = users as [string, string];
    const [adaRow] = await database.db.select().from(account).where(eq(account.userId, ada));
    expect(fresh.open(adaRow!.accessToken!, oauthTokenContext(ada, "accessToken"))).toBe("ada-access");
    expect(adaRow!.refreshToken).toBe("ada-legacy-plaintext");
    const [bobRow] = await database.db.select().from(account).where(eq(account.userId, bob));
    expect(bobRow!.accessToken).toMatch(/^v1:/);
    expect(fresh.open(bobRow!.refreshToken!, oauthTokenContext(bob, "refreshToken"))).toBe("bob-refresh");

    // What was left on key 1 still stops a start without it.
    const refusal = await assertSealedSecretsOpen(database.db, parseKeyring(KEY_2)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidEnvironmentError);
    expect((refusal as InvalidEnvironmentError).issues).toEqual([
      expect.stringContaining("SECRETS_KEY: 1 stored OAuth tokens of linked accounts value(s) are sealed with key version 1, which SECRETS_KEY does not list"),
    ]);
    // A second run re-seals nothing more.
    expect((await resealSecrets(database.db, parseKeyring(`${KEY_2},${KEY_1}`))).map((count) => count.values)).toEqual([0, 0, 0]);
    expect(await database.db.select({ id: alertActions.id }).from(alertActions).where(like(alertActions.urlSealed, "v1:%"))).toEqual([]);
  });

  it("refuses other key material under a listed version, naming the family", async () => {
    const refusal = await assertSealedSecretsOpen(database.db, parseKeyring(`2:${"99".repeat(32)},${KEY_1}`)).catch((error: unknown) => error);
    expect((refusal as InvalidEnvironmentError).issues).toContain(
      "SECRETS_KEY: cannot open the stored alert action URLs and signing secrets (sealed with key version 2); this is not the key they were sealed with. Set the key they were sealed with (to rotate, list the new key first and the old one after it).",
    );
  });
});
