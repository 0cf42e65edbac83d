import type { Env } from "../../env";
import type { SecretBox } from "../../secrets/secret-box";
import type { AwsWafClientOptions } from "./aws-waf-client";
import { createIpSetLocks, type IpSetLocks } from "./ip-set-locks";
import type { WafClient } from "./waf-client";

/** What the `waf` service slot holds: the AWS client, the secret box credentials are sealed with, and the per-IP-set write locks. */
export interface WafIntegration {
  client: WafClient;
  secretBox: SecretBox;
  locks: IpSetLocks;
  /** Whether this server has its own AWS identity to assume organizations' roles with. */
  rolesAvailable: boolean;
}

type WafEnv = Pick<
  Env,
  "AWS_ENDPOINT_URL" | "AWS_ENDPOINT_URL_WAFV2" | "AWS_ENDPOINT_URL_STS" | "AWS_ACCESS_KEY_ID" | "AWS_SECRET_ACCESS_KEY" | "AWS_SESSION_TOKEN"
>;

/** Built once in main.ts (and by tests, pointed at the loopback stand-in through the same variables). */
export function createWafIntegration(env: WafEnv, secretBox: SecretBox, client?: WafClient): WafIntegration {
  const assumer =
    env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN }
      : undefined;
  return {
    client:
      client ??
      awsWafClientOnDemand({
        // The SDK's own precedence: the service-specific variable, then the global one.
        wafEndpoint: env.AWS_ENDPOINT_URL_WAFV2 ?? env.AWS_ENDPOINT_URL,
        stsEndpoint: env.AWS_ENDPOINT_URL_STS ?? env.AWS_ENDPOINT_URL,
        assumer,
        maxAttempts: 3,
      }),
    secretBox,
    locks: createIpSetLocks(),
    rolesAvailable: assumer !== undefined,
  };
}

/**
 * The AWS SDK client, loaded with the first WAF call rather than at start-up: the SDK holds about
 * 20 MB that a server whose organizations never connect a WAF should not carry.
 */
function awsWafClientOnDemand(options: AwsWafClientOptions): WafClient {
  let client: Promise<WafClient> | null = null;
  const aws = () => (client ??= import("./aws-waf-client").then((module) => module.createAwsWafClient(options)));
  return {
    listWebAcls: async (connection) => (await aws()).listWebAcls(connection),
    getWebAcl: async (connection, webAcl) => (await aws()).getWebAcl(connection, webAcl),
    listIpSets: async (connection) => (await aws()).listIpSets(connection),
    getIpSet: async (connection, ipSet) => (await aws()).getIpSet(connection, ipSet),
    updateIpSet: async (connection, ipSet, addresses) => (await aws()).updateIpSet(connection, ipSet, addresses),
    sampledRequests: async (connection, query) => (await aws()).sampledRequests(connection, query),
  };
}
