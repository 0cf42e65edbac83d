import { BlockIpInput, ConnectWafInput, IpSetIdInput, ListWafAuditInput, SetBlockListInput } from "../../../shared/waf.inputs";
import {
  IntegrationList,
  WafAuditList,
  WafBlockResult,
  WafConnectionView,
  WafDisconnected,
  WafIpSetList,
  WafSampledRequestList,
  WafWebAclList,
} from "../../../shared/waf.views";
import { bodyOf, queryOf } from "../../rest/input";
import type { OrgRequestContext, RestRoute } from "../../rest/rest-route";
import { blockIp, listWafAudit, unblockIp } from "./waf-block.service";
import { connectWaf, disconnectWaf, getWafConnection, listIntegrations } from "./waf-connection.service";
import { listIpSets, listWebAcls, sampledRequests, setBlockList } from "./waf-resources.service";

const INTEGRATIONS_PATH = "/organizations/:orgId/integrations";
const WAF_PATH = `${INTEGRATIONS_PATH}/aws/waf`;
const tag = "Integrations";
const ctxOf = (ctx: OrgRequestContext) => ({ db: ctx.db, org: ctx.org, waf: ctx.waf });

/** REST twins of the integration and waf procedures (issue 16), over the same services; every AWS call is made by the server. */
export const wafRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: INTEGRATIONS_PATH,
    summary: "List integrations with their status",
    tag,
    output: IntegrationList,
    response: "Every integration with status, last error and connection time",
    access: "organization",
    handler: (ctx) => listIntegrations(ctxOf(ctx)),
  },
  {
    method: "get",
    path: WAF_PATH,
    summary: "Get the AWS WAF connection (404 when not connected)",
    tag,
    output: WafConnectionView,
    response: "The connection, the key id masked",
    access: "organization",
    handler: (ctx) => getWafConnection(ctxOf(ctx)),
  },
  {
    method: "put",
    path: WAF_PATH,
    summary: "Connect or reconnect AWS WAF: ListWebACLs runs with the credentials first; only then are they stored",
    tag,
    input: ConnectWafInput,
    output: WafConnectionView,
    response: "The connection, the key id masked",
    access: "organization",
    permission: "integration:connect",
    handler: (ctx, req) => connectWaf(ctxOf(ctx), bodyOf(req)),
  },
  {
    method: "delete",
    path: WAF_PATH,
    summary: "Disconnect AWS WAF (the stored credentials are deleted)",
    tag,
    output: WafDisconnected,
    response: "Disconnected",
    access: "organization",
    permission: "integration:connect",
    handler: (ctx) => disconnectWaf(ctxOf(ctx)),
  },
  {
    method: "get",
    path: `${WAF_PATH}/web-acls`,
    summary: "List web ACLs with their rules",
    tag,
    output: WafWebAclList,
    response: "Web ACLs of the connected region and scope",
    access: "organization",
    handler: (ctx) => listWebAcls(ctxOf(ctx)),
  },
  {
    method: "get",
    path: `${WAF_PATH}/ip-sets`,
    summary: "List IP sets with their addresses",
    tag,
    output: WafIpSetList,
    response: "IP sets, their addresses and the rules referencing them",
    access: "organization",
    handler: (ctx) => listIpSets(ctxOf(ctx)),
  },
  {
    method: "get",
    path: `${WAF_PATH}/ip-sets/:ipSetId/sampled-requests`,
    summary: "Requests AWS sampled in the last 3 hours for the rules referencing the IP set",
    tag,
    input: IpSetIdInput,
    output: WafSampledRequestList,
    response: "Sampled requests, each client IP with the exceptions seen from it",
    access: "organization",
    handler: (ctx, req) => sampledRequests(ctxOf(ctx), queryOf(req)),
  },
  {
    method: "put",
    path: `${WAF_PATH}/block-list`,
    summary: "Choose the block-list IP set",
    tag,
    input: SetBlockListInput,
    output: WafConnectionView,
    response: "The connection with its block list",
    access: "organization",
    permission: "integration:connect",
    handler: (ctx, req) => setBlockList(ctxOf(ctx), bodyOf(req)),
  },
  {
    method: "post",
    path: `${WAF_PATH}/blocks`,
    summary: "Block an address (added as /32 or /128; already blocked is a no-op)",
    tag,
    input: BlockIpInput,
    output: WafBlockResult,
    response: "The IP set and whether it changed",
    status: 201,
    access: "organization",
    permission: "integration:block",
    handler: (ctx, req) => blockIp(ctxOf(ctx), bodyOf(req)),
  },
  {
    method: "delete",
    // The address is one path segment: a CIDR's slash arrives percent-encoded (203.0.113.0%2F24).
    path: `${WAF_PATH}/blocks/:ip`,
    summary: "Unblock an address (a CIDR's slash percent-encoded; absent is a no-op)",
    tag,
    input: BlockIpInput.pick({ ip: true, ipSetId: true }),
    output: WafBlockResult,
    response: "The IP set and whether it changed",
    access: "organization",
    permission: "integration:block",
    handler: (ctx, req) => unblockIp(ctxOf(ctx), { ...queryOf(req), ...bodyOf(req) }),
  },
  {
    method: "get",
    path: `${WAF_PATH}/audit`,
    summary: "Block and unblock history, newest first",
    tag,
    input: ListWafAuditInput,
    output: WafAuditList,
    response: "Audit entries",
    access: "organization",
    handler: (ctx, req) => listWafAudit(ctxOf(ctx), queryOf(req)),
  },
];
