import { isIP } from "node:net";
import { AwsError, type AwsStandIn } from "./aws-stand-in";
import { newLockToken, type StandInAccount, type StandInIpSet } from "./waf-state";

interface WafCall {
  operation: string;
  region: string;
  account: StandInAccount;
  input: Record<string, any>;
}

/** AWS WAF's own limit on one IP set. */
const MAX_ADDRESSES = 10_000;
const THREE_HOURS_MS = 3 * 3600_000;
const NONEXISTENT = "AWS WAF couldn’t perform the operation because your resource doesn’t exist.";

const invalid = (field: string, parameter: unknown, reason: string) =>
  new AwsError("WAFInvalidParameterException", `Error reason: ${reason}, field: ${field}, parameter: ${String(parameter)}`);

function checkScope(call: WafCall): "REGIONAL" | "CLOUDFRONT" {
  const scope = call.input.Scope;
  if (scope !== "REGIONAL" && scope !== "CLOUDFRONT") throw invalid("SCOPE_VALUE", scope, "The scope is not valid.");
  // CloudFront resources are global and reached through us-east-1 only.
  if (scope === "CLOUDFRONT" && call.region !== "us-east-1") throw invalid("SCOPE_VALUE", scope, "The scope is not valid.");
  return scope;
}

function inHome<T extends { accountId: string; region: string; scope: string }>(items: T[], call: WafCall, scope: string) {
  return items.filter((item) => item.accountId === call.account.accountId && item.scope === scope && (scope === "CLOUDFRONT" || item.region === call.region));
}

function validCidr(address: unknown, version: StandInIpSet["version"]) {
  if (typeof address !== "string") return false;
  const [ip, bits, extra] = address.split("/");
  if (extra !== undefined || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
  const family = isIP(ip!);
  return version === "IPV4" ? family === 4 && Number(bits) <= 32 : family === 6 && Number(bits) <= 128;
}

const summary = (item: { Name?: string; name: string; id: string; lockToken: string; arn: string }) => ({
  Name: item.name,
  Id: item.id,
  Description: "",
  LockToken: item.lockToken,
  ARN: item.arn,
});

export async function answerWaf(standIn: AwsStandIn, call: WafCall): Promise<unknown> {
  if (standIn.throttleNext > 0) {
    standIn.throttleNext -= 1;
    throw new AwsError("ThrottlingException", "Rate exceeded");
  }
  if (call.account.denied.has(`wafv2:${call.operation}`)) {
    throw new AwsError(
      "AccessDeniedException",
      `User: arn:aws:iam::${call.account.accountId}:user/faultline is not authorized to perform: wafv2:${call.operation} because no identity-based policy allows the wafv2:${call.operation} action`,
    );
  }
  switch (call.operation) {
    case "ListWebACLs": {
      const scope = checkScope(call);
      return { WebACLs: inHome(standIn.webAcls, call, scope).map(summary) };
    }
    case "ListIPSets": {
      const scope = checkScope(call);
      return { IPSets: inHome(standIn.ipSets, call, scope).map(summary) };
    }
    case "GetWebACL": {
      const scope = checkScope(call);
      const acl = inHome(standIn.webAcls, call, scope).find((item) => item.id === call.input.Id && item.name === call.input.Name);
      if (!acl) throw new AwsError("WAFNonexistentItemException", NONEXISTENT);
      return {
        WebACL: {
          Name: acl.name,
          Id: acl.id,
          ARN: acl.arn,
          DefaultAction: { Allow: {} },
          Rules: acl.rules.map((rule) => ({
            Name: rule.name,
            Priority: rule.priority,
            Statement: rule.ipSetArn ? { IPSetReferenceStatement: { ARN: rule.ipSetArn } } : { GeoMatchStatement: { CountryCodes: ["AQ"] } },
            Action: { [rule.action]: {} },
            VisibilityConfig: { SampledRequestsEnabled: true, CloudWatchMetricsEnabled: true, MetricName: rule.name },
          })),
          VisibilityConfig: { SampledRequestsEnabled: true, CloudWatchMetricsEnabled: true, MetricName: acl.name },
          Capacity: acl.rules.length,
        },
        LockToken: acl.lockToken,
      };
    }
    case "GetIPSet": {
      const ipSet = findIpSet(standIn, call);
      return {
        IPSet: { Name: ipSet.name, Id: ipSet.id, ARN: ipSet.arn, Description: "", IPAddressVersion: ipSet.version, Addresses: [...ipSet.addresses] },
        LockToken: ipSet.lockToken,
      };
    }
    case "UpdateIPSet": {
      const ipSet = findIpSet(standIn, call);
      const addresses: unknown[] = Array.isArray(call.input.Addresses) ? call.input.Addresses : [];
      for (const address of addresses) if (!validCidr(address, ipSet.version)) throw invalid("IP_ADDRESS", address, "The IP address is not valid.");
      if (addresses.length > MAX_ADDRESSES)
        throw new AwsError(
          "WAFLimitsExceededException",
          "AWS WAF couldn’t perform the operation because you exceeded your resource limit. For example, the maximum number of WebACL objects that you can create for an Amazon Web Services account.",
        );
      const presented = call.input.LockToken;
      if (standIn.updateDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, standIn.updateDelayMs));
      if (standIn.forcedLockConflicts > 0) {
        standIn.forcedLockConflicts -= 1;
        // Another writer got in first: the token rotates, as it would in AWS.
        ipSet.lockToken = newLockToken();
      }
      if (presented !== ipSet.lockToken) {
        throw new AwsError(
          "WAFOptimisticLockException",
          "AWS WAF couldn’t save your changes because someone changed the resource after you started to edit it. Reapply your changes.",
        );
      }
      ipSet.addresses = addresses as string[];
      ipSet.lockToken = newLockToken();
      return { NextLockToken: ipSet.lockToken };
    }
    case "GetSampledRequests": {
      const scope = checkScope(call);
      const acl = inHome(standIn.webAcls, call, scope).find((item) => item.arn === call.input.WebAclArn);
      if (!acl) throw new AwsError("WAFNonexistentItemException", NONEXISTENT);
      const start = Number(call.input.TimeWindow?.StartTime) * 1000;
      const end = Number(call.input.TimeWindow?.EndTime) * 1000;
      if (!(start < end) || start < Date.now() - THREE_HOURS_MS - 60_000) throw invalid("TIME_WINDOW", start, "The time window is not valid.");
      const max = Math.min(Number(call.input.MaxItems) || 100, 500);
      const found = standIn.samples
        .filter((sample) => sample.webAclArn === acl.arn && sample.ruleMetricName === call.input.RuleMetricName)
        .filter((sample) => sample.at.getTime() >= start && sample.at.getTime() <= end)
        .slice(0, max);
      return {
        SampledRequests: found.map((sample) => ({
          Request: { ClientIP: sample.clientIp, Country: sample.country, URI: sample.uri, Method: sample.method, HTTPVersion: "HTTP/1.1", Headers: [] },
          Weight: 1,
          Timestamp: sample.at.getTime() / 1000,
          Action: sample.action,
          RuleNameWithinRuleGroup: call.input.RuleMetricName,
        })),
        PopulationSize: found.length,
        TimeWindow: { StartTime: start / 1000, EndTime: end / 1000 },
      };
    }
    default:
      throw new AwsError("UnknownOperationException", `The stand-in does not implement ${call.operation}`);
  }
}

function findIpSet(standIn: AwsStandIn, call: WafCall): StandInIpSet {
  const scope = checkScope(call);
  const ipSet = inHome(standIn.ipSets, call, scope).find((item) => item.id === call.input.Id && item.name === call.input.Name);
  if (!ipSet) throw new AwsError("WAFNonexistentItemException", NONEXISTENT);
  return ipSet;
}
