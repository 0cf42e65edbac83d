import {
  GetIPSetCommand,
  GetSampledRequestsCommand,
  GetWebACLCommand,
  ListIPSetsCommand,
  ListWebACLsCommand,
  UpdateIPSetCommand,
  WAFV2Client,
  type Rule,
} from "@aws-sdk/client-wafv2";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { AppError } from "../../errors";
import type { WafClient, WafConnection, WafRule } from "./waf-client";
import { wafError } from "./waf-errors";

export interface AwsWafClientOptions {
  /** AWS_ENDPOINT_URL_WAFV2 ?? AWS_ENDPOINT_URL (a WAF-compatible proxy, or a test stand-in). */
  wafEndpoint?: string;
  /** AWS_ENDPOINT_URL_STS ?? AWS_ENDPOINT_URL. */
  stsEndpoint?: string;
  /** Faultline's own identity, which assumes customers' roles; without it role ARNs are refused. */
  assumer?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** SDK attempts per call (throttling is retried with the SDK's backoff). */
  maxAttempts?: number;
}

interface CachedRole {
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  expires: number;
}

const PAGE = 100;
const ROLE_SESSION = "faultline-waf";
const ROLE_REFRESH_MS = 5 * 60_000;

const regionOf = (connection: WafConnection) => (connection.scope === "CLOUDFRONT" ? "us-east-1" : connection.region);

function ruleOf(rule: Rule): WafRule {
  const action = rule.Action ? (Object.keys(rule.Action).find((key) => rule.Action![key as keyof typeof rule.Action]) ?? null) : null;
  return {
    name: rule.Name ?? "",
    priority: rule.Priority ?? 0,
    action,
    ipSetArn: rule.Statement?.IPSetReferenceStatement?.ARN ?? null,
    metricName: rule.VisibilityConfig?.MetricName ?? rule.Name ?? "",
  };
}

/** WafClient over `@aws-sdk/client-wafv2`, one short-lived SDK client per call so no credentials outlive it. */
export function createAwsWafClient(options: AwsWafClientOptions): WafClient {
  // Assumed-role credentials are per role ARN + ExternalId (an organization's own), never shared across organizations.
  const roleCache = new Map<string, CachedRole>();

  async function credentialsOf(connection: WafConnection) {
    const { credentials } = connection;
    if (credentials.kind === "keys") return { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey };
    const cacheKey = `${credentials.roleArn}\n${credentials.externalId}`;
    const cached = roleCache.get(cacheKey);
    if (cached && cached.expires - ROLE_REFRESH_MS > Date.now()) return cached.credentials;
    if (!options.assumer) {
      throw new AppError(
        "BAD_REQUEST",
        "This server has no AWS identity to assume roles with (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY); use an access key instead",
        {
          reason: "aws_no_assumer",
        },
      );
    }
    const sts = new STSClient({ region: regionOf(connection), endpoint: options.stsEndpoint, credentials: options.assumer, maxAttempts: options.maxAttempts });
    try {
      const answer = await sts.send(new AssumeRoleCommand({ RoleArn: credentials.roleArn, ExternalId: credentials.externalId, RoleSessionName: ROLE_SESSION }));
      const issued = answer.Credentials;
      if (!issued?.AccessKeyId || !issued.SecretAccessKey) throw new AppError("BAD_GATEWAY", "AWS STS answered AssumeRole without credentials");
      const resolved = { accessKeyId: issued.AccessKeyId, secretAccessKey: issued.SecretAccessKey, sessionToken: issued.SessionToken };
      roleCache.set(cacheKey, { credentials: resolved, expires: issued.Expiration?.getTime() ?? Date.now() + 15 * 60_000 });
      return resolved;
    } catch (error) {
      throw wafError(error, { action: "sts:AssumeRole", resource: "role" });
    } finally {
      sts.destroy();
    }
  }

  async function send<T>(connection: WafConnection, action: string, resource: string | undefined, call: (client: WAFV2Client) => Promise<T>): Promise<T> {
    const client = new WAFV2Client({
      region: regionOf(connection),
      endpoint: options.wafEndpoint,
      credentials: await credentialsOf(connection),
      maxAttempts: options.maxAttempts,
    });
    try {
      return await call(client);
    } catch (error) {
      throw wafError(error, { action, resource });
    } finally {
      client.destroy();
    }
  }

  return {
    listWebAcls: (connection) =>
      send(connection, "wafv2:ListWebACLs", undefined, async (client) => {
        const found = [];
        let marker: string | undefined;
        do {
          const page = await client.send(new ListWebACLsCommand({ Scope: connection.scope, Limit: PAGE, NextMarker: marker }));
          for (const acl of page.WebACLs ?? []) found.push({ id: acl.Id ?? "", name: acl.Name ?? "", arn: acl.ARN ?? "" });
          marker = page.WebACLs?.length ? page.NextMarker : undefined;
        } while (marker);
        return found;
      }),
    getWebAcl: (connection, webAcl) =>
      send(connection, "wafv2:GetWebACL", "web ACL", async (client) => {
        const answer = await client.send(new GetWebACLCommand({ Scope: connection.scope, Id: webAcl.id, Name: webAcl.name }));
        const acl = answer.WebACL;
        return { id: acl?.Id ?? webAcl.id, name: acl?.Name ?? webAcl.name, arn: acl?.ARN ?? "", rules: (acl?.Rules ?? []).map(ruleOf) };
      }),
    listIpSets: (connection) =>
      send(connection, "wafv2:ListIPSets", undefined, async (client) => {
        const found = [];
        let marker: string | undefined;
        do {
          const page = await client.send(new ListIPSetsCommand({ Scope: connection.scope, Limit: PAGE, NextMarker: marker }));
          for (const ipSet of page.IPSets ?? []) found.push({ id: ipSet.Id ?? "", name: ipSet.Name ?? "", arn: ipSet.ARN ?? "" });
          marker = page.IPSets?.length ? page.NextMarker : undefined;
        } while (marker);
        return found;
      }),
    getIpSet: (connection, ipSet) =>
      send(connection, "wafv2:GetIPSet", "IP set", async (client) => {
        const answer = await client.send(new GetIPSetCommand({ Scope: connection.scope, Id: ipSet.id, Name: ipSet.name }));
        const set = answer.IPSet;
        if (!set || !answer.LockToken) throw new AppError("BAD_GATEWAY", "AWS WAF answered GetIPSet without the IP set or its lock token");
        return {
          id: set.Id ?? ipSet.id,
          name: set.Name ?? ipSet.name,
          arn: set.ARN ?? "",
          version: set.IPAddressVersion === "IPV6" ? "IPV6" : "IPV4",
          addresses: set.Addresses ?? [],
          lockToken: answer.LockToken,
        };
      }),
    updateIpSet: (connection, ipSet, addresses) =>
      send(connection, "wafv2:UpdateIPSet", "IP set", async (client) => {
        const answer = await client.send(
          new UpdateIPSetCommand({ Scope: connection.scope, Id: ipSet.id, Name: ipSet.name, LockToken: ipSet.lockToken, Addresses: addresses }),
        );
        if (!answer.NextLockToken) throw new AppError("BAD_GATEWAY", "AWS WAF answered UpdateIPSet without the next lock token");
        return { lockToken: answer.NextLockToken };
      }),
    sampledRequests: (connection, query) =>
      send(connection, "wafv2:GetSampledRequests", "web ACL", async (client) => {
        const answer = await client.send(
          new GetSampledRequestsCommand({
            Scope: connection.scope,
            WebAclArn: query.webAclArn,
            RuleMetricName: query.ruleMetricName,
            TimeWindow: { StartTime: query.from, EndTime: query.to },
            MaxItems: query.maxItems,
          }),
        );
        return (answer.SampledRequests ?? []).map((sample) => ({
          clientIp: sample.Request?.ClientIP ?? "",
          country: sample.Request?.Country ?? null,
          method: sample.Request?.Method ?? null,
          uri: sample.Request?.URI ?? null,
          action: sample.Action ?? null,
          at: sample.Timestamp ?? new Date(0),
        }));
      }),
  };
}
