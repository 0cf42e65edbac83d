import { parseIpOrCidr } from "../../../shared/ip-address";
import type { IpSetIdInput, SetBlockListInput } from "../../../shared/waf.inputs";
import type { WafConnectionView, WafIpSetView, WafSampledRequestList, WafWebAclView } from "../../../shared/waf.views";
import { AppError } from "../../errors";
import type { WafResourceSummary, WafWebAcl } from "./waf-client";
import { selectExceptionsFromIp, updateWafConnection } from "./waf-connection.queries";
import { getWafConnection } from "./waf-connection.service";
import type { ServiceContext } from "../../context";
import { withConnection, type ConnectedWaf } from "./waf-context";
import { requirePermission } from "../../organizations/permissions";

/** AWS keeps sampled requests for three hours. */
const SAMPLE_WINDOW_MS = 3 * 3600_000;
const SAMPLES_PER_RULE = 100;

/** An IP set ARN ends in `/ipset/<name>/<id>`. */
const idOfArn = (arn: string | null) => (arn ? (arn.split("/").pop() ?? null) : null);

async function webAclsWithRules(connected: ConnectedWaf): Promise<WafWebAcl[]> {
  const { client } = connected.waf;
  const summaries = await client.listWebAcls(connected.connection);
  return Promise.all(summaries.map((summary) => client.getWebAcl(connected.connection, summary)));
}

async function findIpSet(connected: ConnectedWaf, ipSetId: string): Promise<WafResourceSummary> {
  const found = (await connected.waf.client.listIpSets(connected.connection)).find((ipSet) => ipSet.id === ipSetId);
  if (!found) throw new AppError("NOT_FOUND", "No IP set with this id in the connected region and scope (deleted in AWS?)");
  return found;
}

/** `GET …/waf/web-acls`: each web ACL with its rules and the IP set each rule references. */
export function listWebAcls(ctx: ServiceContext): Promise<WafWebAclView[]> {
  return withConnection(ctx, async (connected) =>
    (await webAclsWithRules(connected)).map((acl) => ({
      id: acl.id,
      name: acl.name,
      arn: acl.arn,
      rules: acl.rules.map((rule) => ({
        name: rule.name,
        priority: rule.priority,
        action: rule.action,
        ipSetArn: rule.ipSetArn,
        ipSetId: idOfArn(rule.ipSetArn),
      })),
    })),
  );
}

/** `GET …/waf/ip-sets`: every IP set with its addresses and the rules that reference it. */
export function listIpSets(ctx: ServiceContext): Promise<WafIpSetView[]> {
  return withConnection(ctx, async (connected) => {
    const { client } = connected.waf;
    const [summaries, acls] = await Promise.all([client.listIpSets(connected.connection), webAclsWithRules(connected)]);
    const ipSets = await Promise.all(summaries.map((summary) => client.getIpSet(connected.connection, summary)));
    return ipSets.map((ipSet) => ({
      id: ipSet.id,
      name: ipSet.name,
      arn: ipSet.arn,
      version: ipSet.version,
      addresses: ipSet.addresses,
      isBlockList: connected.row.blockListIpSetId === ipSet.id,
      referencedBy: acls.flatMap((acl) =>
        acl.rules
          .filter((rule) => rule.ipSetArn === ipSet.arn)
          .map((rule) => ({ webAclId: acl.id, webAclName: acl.name, ruleName: rule.name, action: rule.action })),
      ),
    }));
  });
}

/** `PUT …/waf/block-list`: which IP set "Block this IP" writes to. */
export async function setBlockList(ctx: ServiceContext, { ipSetId }: SetBlockListInput): Promise<WafConnectionView> {
  await requirePermission(ctx, "integration:connect");
  await withConnection(ctx, async (connected) => {
    const ipSet = await connected.waf.client.getIpSet(connected.connection, await findIpSet(connected, ipSetId));
    await updateWafConnection(ctx.db, ctx.org.organizationId, {
      blockListIpSetId: ipSet.id,
      blockListIpSetName: ipSet.name,
      blockListIpSetArn: ipSet.arn,
      blockListVersion: ipSet.version,
    });
  });
  return getWafConnection(ctx);
}

/**
 * `GET …/ip-sets/{ipSetId}/sampled-requests`: the last three hours of requests AWS sampled for
 * every rule that references the IP set, each client IP with the exceptions seen from it.
 */
export async function sampledRequests(ctx: ServiceContext, { ipSetId }: IpSetIdInput): Promise<WafSampledRequestList> {
  const to = new Date();
  const from = new Date(to.getTime() - SAMPLE_WINDOW_MS);
  const requests = await withConnection(ctx, async (connected) => {
    const ipSet = await findIpSet(connected, ipSetId);
    const rules = (await webAclsWithRules(connected)).flatMap((acl) => acl.rules.filter((rule) => rule.ipSetArn === ipSet.arn).map((rule) => ({ acl, rule })));
    const perRule = await Promise.all(
      rules.map(async ({ acl, rule }) => {
        const samples = await connected.waf.client.sampledRequests(connected.connection, {
          webAclArn: acl.arn,
          ruleMetricName: rule.metricName,
          from,
          to,
          maxItems: SAMPLES_PER_RULE,
        });
        return samples.map((sample) => ({ ...sample, webAclName: acl.name, ruleName: rule.name }));
      }),
    );
    return perRule.flat().sort((a, b) => b.at.getTime() - a.at.getTime());
  });
  const exceptionsByIp = new Map<string, Awaited<ReturnType<typeof selectExceptionsFromIp>>>();
  for (const ip of new Set(requests.map((request) => request.clientIp))) {
    // Only well-formed addresses are searched for (the value comes from outside).
    const parsed = parseIpOrCidr(ip);
    exceptionsByIp.set(ip, parsed && !ip.includes("/") ? await selectExceptionsFromIp(ctx.db, ctx.org.organizationId, ip, from) : []);
  }
  return { from, to, requests: requests.map((request) => ({ ...request, exceptions: exceptionsByIp.get(request.clientIp) ?? [] })) };
}
