import { parseEnv } from "../../src/server/env";
import type { WAF_REGIONS } from "../../src/shared/waf.inputs";
import { createWafIntegration } from "../../src/server/integrations/waf/waf.module";
import { parseKeyring } from "../../src/server/secrets/keyring";
import { createSecretBox } from "../../src/server/secrets/secret-box";
import { AwsStandIn } from "../stand-ins/aws/aws-stand-in";
import type { StandInAccount } from "../stand-ins/aws/waf-state";
import { HttpSession } from "./http-session";
import { startTestServer, TEST_SECRETS_KEY, type TestServer } from "./test-server";
import type { TestDatabase } from "./test-database";

/**
 * The real app with its AWS WAF slot built the way main.ts builds it — from environment variables,
 * here `AWS_ENDPOINT_URL` naming the loopback stand-in — so the SDK's endpoint setting is what
 * carries every call there. `faultline` is the server's own identity (for assuming roles).
 */
export async function startWafTestServer(aws: AwsStandIn, options: { database?: TestDatabase; secretsKey?: string; serveClient?: boolean } = {}) {
  const faultline = aws.addAccount({ accountId: "999999999999" });
  const awsEnv = { AWS_ENDPOINT_URL: aws.url, AWS_ACCESS_KEY_ID: faultline.accessKeyId, AWS_SECRET_ACCESS_KEY: faultline.secretAccessKey };
  const secretsKey = options.secretsKey ?? TEST_SECRETS_KEY;
  const waf = createWafIntegration(parseEnv(awsEnv), createSecretBox(parseKeyring(secretsKey)));
  const server = await startTestServer({
    env: { ...awsEnv, SECRETS_KEY: secretsKey },
    database: options.database,
    serveClient: options.serveClient,
    outside: { waf },
  });
  return { server, faultline };
}

/** A browser-like session that keeps every answer it got, for the "no secret in any answer" scan. */
export class RecordingSession extends HttpSession {
  static readonly transcript: string[] = [];

  override async request<T = any>(path: string, init: Parameters<HttpSession["request"]>[1] = {}) {
    const response = await super.request<T>(path, init);
    RecordingSession.transcript.push(response.text);
    return response;
  }
}

/** A stand-in account with one regional web ACL whose rule blocks the IP set "faultline-blocked". */
export function seedWafAccount(aws: AwsStandIn, region = "eu-west-1", options: { denied?: string[] } = {}) {
  const account: StandInAccount = aws.addAccount({ denied: options.denied });
  const home = { accountId: account.accountId, region, scope: "REGIONAL" as const };
  const blocked = aws.addIpSet(home, { name: "faultline-blocked", addresses: ["192.0.2.1/32"] });
  const blockedV6 = aws.addIpSet(home, { name: "faultline-blocked-v6", version: "IPV6" });
  const unused = aws.addIpSet(home, { name: "unreferenced" });
  const webAcl = aws.addWebAcl(home, "shop-acl", [
    { name: "block-faultline", priority: 0, ipSetArn: blocked.arn, action: "Block" },
    { name: "count-v6", priority: 1, ipSetArn: blockedV6.arn, action: "Count" },
  ]);
  return { account, home, blocked, blockedV6, unused, webAcl };
}

export const keysOf = (account: StandInAccount, region: (typeof WAF_REGIONS)[number] = "eu-west-1") => ({
  region,
  scope: "REGIONAL" as const,
  accessKeyId: account.accessKeyId,
  secretAccessKey: account.secretAccessKey,
});

export type { TestServer };
