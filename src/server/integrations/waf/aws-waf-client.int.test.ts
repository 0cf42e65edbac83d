/**
 * The real `@aws-sdk/client-wafv2` and `@aws-sdk/client-sts` against the loopback stand-in
 * (test/stand-ins/aws): SigV4 accepted and checked, lock tokens rotated, and each modelled AWS
 * error turned into the AppError the user sees.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { AwsStandIn } from "../../../../test/stand-ins/aws/aws-stand-in";
import type { StandInAccount } from "../../../../test/stand-ins/aws/waf-state";
import { ListWebACLsCommand, WAFV2Client } from "@aws-sdk/client-wafv2";
import { createAwsWafClient } from "./aws-waf-client";
import { wafError } from "./waf-errors";
import { createWafIntegration } from "./waf.module";
import { parseKeyring } from "../../secrets/keyring";
import { createSecretBox } from "../../secrets/secret-box";
import type { WafConnection } from "./waf-client";

const failureOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected the call to fail");
};

describe("AWS WAFv2 client against the stand-in", () => {
  let aws: AwsStandIn;
  let account: StandInAccount;
  let connection: WafConnection;
  let client: ReturnType<typeof createAwsWafClient>;

  beforeAll(async () => {
    aws = await new AwsStandIn().start();
    account = aws.addAccount();
    connection = {
      region: "eu-west-1",
      scope: "REGIONAL",
      credentials: { kind: "keys", accessKeyId: account.accessKeyId, secretAccessKey: account.secretAccessKey },
    };
    client = createAwsWafClient({ wafEndpoint: aws.url, stsEndpoint: aws.url, maxAttempts: 2 });
  });
  afterAll(() => aws.close());

  it("lists web ACLs and IP sets of the region and scope only, with each rule's IP set reference", async () => {
    const home = { accountId: account.accountId, region: "eu-west-1", scope: "REGIONAL" as const };
    const ipSet = aws.addIpSet(home, { name: "blocked", addresses: ["198.51.100.1/32"] });
    aws.addIpSet({ ...home, region: "us-west-2" }, { name: "elsewhere" });
    aws.addWebAcl(home, "main", [{ name: "block-list", priority: 0, ipSetArn: ipSet.arn, action: "Block" }]);
    const acls = await client.listWebAcls(connection);
    expect(acls.map((acl) => acl.name)).toEqual(["main"]);
    const acl = await client.getWebAcl(connection, acls[0]!);
    expect(acl.rules).toEqual([{ name: "block-list", priority: 0, action: "Block", ipSetArn: ipSet.arn, metricName: "block-list" }]);
    expect((await client.listIpSets(connection)).map((set) => set.name)).toEqual(["blocked"]);
    const read = await client.getIpSet(connection, ipSet);
    expect(read).toMatchObject({ version: "IPV4", addresses: ["198.51.100.1/32"], lockToken: ipSet.lockToken });
    expect(aws.calls.every((call) => call.region === "eu-west-1" && call.accessKeyId === account.accessKeyId)).toBe(true);
  });

  it("updates with the current lock token, which then rotates; a stale token is a CONFLICT", async () => {
    const ipSet = aws.addIpSet({ accountId: account.accountId, region: "eu-west-1", scope: "REGIONAL" }, { name: "rotating" });
    const before = ipSet.lockToken;
    const { lockToken } = await client.updateIpSet(connection, { ...ipSet, lockToken: before }, ["203.0.113.9/32"]);
    expect(lockToken).not.toBe(before);
    expect(aws.ipSet(ipSet.id)?.addresses).toEqual(["203.0.113.9/32"]);
    const stale = await failureOf(client.updateIpSet(connection, { ...ipSet, lockToken: before }, []));
    expect(stale.code).toBe("CONFLICT");
    expect(aws.ipSet(ipSet.id)?.addresses).toEqual(["203.0.113.9/32"]);
  });

  it("turns each modelled AWS error into a specific, actionable AppError", async () => {
    const wrongSecret = await failureOf(
      client.listWebAcls({ ...connection, credentials: { kind: "keys", accessKeyId: account.accessKeyId, secretAccessKey: "wrong" } }),
    );
    expect([wrongSecret.code, wrongSecret.message]).toEqual([
      "BAD_REQUEST",
      "AWS rejected the credentials (InvalidSignatureException): check the access key id and secret access key",
    ]);
    const unknownKey = await failureOf(
      client.listWebAcls({ ...connection, credentials: { kind: "keys", accessKeyId: "AKIAUNKNOWN000000000", secretAccessKey: "x" } }),
    );
    expect(unknownKey.message).toContain("UnrecognizedClientException");

    const limited = aws.addAccount({ denied: ["wafv2:UpdateIPSet"] });
    const limitedConnection: WafConnection = {
      ...connection,
      credentials: { kind: "keys", accessKeyId: limited.accessKeyId, secretAccessKey: limited.secretAccessKey },
    };
    const ipSet = aws.addIpSet({ accountId: limited.accountId, region: "eu-west-1", scope: "REGIONAL" }, { name: "limited" });
    const denied = await failureOf(client.updateIpSet(limitedConnection, ipSet, []));
    expect([denied.code, denied.message, denied.details?.action]).toEqual([
      "BAD_REQUEST",
      "AWS denied wafv2:UpdateIPSet: allow it in the IAM policy of these credentials",
      "wafv2:UpdateIPSet",
    ]);

    // Our client always sends CLOUDFRONT to us-east-1; a raw SDK call shows what AWS says otherwise, and how it reads.
    const raw = new WAFV2Client({
      region: "eu-west-1",
      endpoint: aws.url,
      credentials: { accessKeyId: account.accessKeyId, secretAccessKey: account.secretAccessKey },
    });
    const mismatch = wafError(await raw.send(new ListWebACLsCommand({ Scope: "CLOUDFRONT" })).catch((error: unknown) => error), {
      action: "wafv2:ListWebACLs",
    });
    raw.destroy();
    expect([mismatch.code, mismatch.details?.reason]).toEqual(["BAD_REQUEST", "aws_scope_mismatch"]);
    expect((await client.listWebAcls({ ...connection, scope: "CLOUDFRONT" })).length).toBe(0);

    aws.deleteIpSet(ipSet.id);
    const gone = await failureOf(client.getIpSet(limitedConnection, ipSet));
    expect([gone.code, gone.message]).toEqual(["NOT_FOUND", "The IP set no longer exists in AWS WAF (deleted in AWS?)"]);

    const full = aws.addIpSet({ accountId: account.accountId, region: "eu-west-1", scope: "REGIONAL" }, { name: "full" });
    const tooMany = Array.from({ length: 10_001 }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32`);
    const limitError = await failureOf(client.updateIpSet(connection, full, tooMany));
    expect([limitError.code, limitError.details?.reason]).toEqual(["BAD_REQUEST", "aws_limit_exceeded"]);
  });

  it("retries throttling with backoff, then reports it", async () => {
    aws.throttleNext = 1;
    expect(await client.listWebAcls(connection)).toHaveLength(1);
    aws.throttleNext = 5;
    const throttled = await failureOf(client.listWebAcls(connection));
    expect([throttled.code, throttled.details?.reason]).toEqual(["SERVICE_UNAVAILABLE", "aws_throttled"]);
    aws.throttleNext = 0;
  });

  it("takes its endpoints from AWS_ENDPOINT_URL_WAFV2 / _STS before AWS_ENDPOINT_URL, as the SDK's own settings do", async () => {
    const faultline = aws.addAccount();
    const customer = aws.addAccount();
    const role = aws.addRole(customer, faultline, "EnvRole");
    role.setExternalId("ext-env");
    // The global variable names a closed loopback port: only the service-specific ones can work.
    const env = { AWS_ENDPOINT_URL: "http://127.0.0.1:1", AWS_ENDPOINT_URL_WAFV2: aws.url, AWS_ENDPOINT_URL_STS: aws.url };
    const box = createSecretBox(parseKeyring("ab".repeat(32)));
    const viaEnv = createWafIntegration(
      { ...env, AWS_ACCESS_KEY_ID: faultline.accessKeyId, AWS_SECRET_ACCESS_KEY: faultline.secretAccessKey, AWS_SESSION_TOKEN: undefined },
      box,
    );
    expect(viaEnv.rolesAvailable).toBe(true);
    const connectionOf = (credentials: WafConnection["credentials"]): WafConnection => ({ region: "eu-west-1", scope: "REGIONAL", credentials });
    expect(await viaEnv.client.listWebAcls(connectionOf({ kind: "role", roleArn: role.arn, externalId: "ext-env" }))).toEqual([]);
    const globalOnly = createWafIntegration(
      {
        AWS_ENDPOINT_URL: "http://127.0.0.1:1",
        AWS_ENDPOINT_URL_WAFV2: undefined,
        AWS_ENDPOINT_URL_STS: undefined,
        AWS_ACCESS_KEY_ID: undefined,
        AWS_SECRET_ACCESS_KEY: undefined,
        AWS_SESSION_TOKEN: undefined,
      },
      box,
    );
    expect(globalOnly.rolesAvailable).toBe(false);
    const unreachable = await failureOf(globalOnly.client.listWebAcls(connection));
    expect([unreachable.code, unreachable.details?.reason]).toEqual(["SERVICE_UNAVAILABLE", "aws_unreachable"]);
  });

  it("assumes a role through STS with the organization's ExternalId, and only with it", async () => {
    const faultline = aws.addAccount({ accountId: "999999999999" });
    const customer = aws.addAccount({ accountId: "222222222222" });
    const role = aws.addRole(customer, faultline);
    role.setExternalId("faultline-org-ext-1");
    aws.addWebAcl({ accountId: customer.accountId, region: "eu-west-1", scope: "REGIONAL" }, "customer-acl", []);
    const roleClient = createAwsWafClient({
      wafEndpoint: aws.url,
      stsEndpoint: aws.url,
      assumer: { accessKeyId: faultline.accessKeyId, secretAccessKey: faultline.secretAccessKey },
    });
    const viaRole: WafConnection = {
      region: "eu-west-1",
      scope: "REGIONAL",
      credentials: { kind: "role", roleArn: role.arn, externalId: "faultline-org-ext-1" },
    };
    expect((await roleClient.listWebAcls(viaRole)).map((acl) => acl.name)).toEqual(["customer-acl"]);
    expect(aws.calls.some((call) => call.service === "sts" && call.operation === "AssumeRole" && call.status === 200)).toBe(true);

    const wrongExternalId = await failureOf(roleClient.listWebAcls({ ...viaRole, credentials: { ...viaRole.credentials, externalId: "guessed" } as never }));
    expect([wrongExternalId.code, wrongExternalId.details?.action]).toEqual(["BAD_REQUEST", "sts:AssumeRole"]);
    const noAssumer = await failureOf(client.listWebAcls({ ...viaRole, credentials: { kind: "role", roleArn: role.arn, externalId: "other" } }));
    expect(noAssumer.details?.reason).toBe("aws_no_assumer");
  });
});
