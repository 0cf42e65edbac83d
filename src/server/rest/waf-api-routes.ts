import { BlockIpInput, ConnectWafInput, IpSetIdInput, ListWafAuditInput, SetBlockListInput } from "../../shared/waf.inputs";
import {
  IntegrationList,
  WafAuditList,
  WafBlockResult,
  WafConnectionView,
  WafDisconnected,
  WafIpSetList,
  WafSampledRequestList,
  WafWebAclList,
} from "../../shared/waf.views";
import type { ApiRoute } from "./api-route";

/** Issue 16: the integrations list and the AWS WAF integration (every AWS call is made by the server). */
export function wafApiRoutes(): ApiRoute[] {
  const I = "/organizations/:orgId/integrations";
  const W = `${I}/aws/waf`;
  const tag = "Integrations";
  return [
    {
      method: "get",
      path: I,
      summary: "List integrations with their status",
      tag,
      output: IntegrationList,
      response: "Every integration with status, last error and connection time",
    },
    {
      method: "get",
      path: W,
      summary: "Get the AWS WAF connection (404 when not connected)",
      tag,
      output: WafConnectionView,
      response: "The connection, the key id masked",
    },
    {
      method: "put",
      path: W,
      summary: "Connect or reconnect AWS WAF: ListWebACLs runs with the credentials first; only then are they stored",
      tag,
      input: ConnectWafInput,
      output: WafConnectionView,
      response: "The connection, the key id masked",
    },
    { method: "delete", path: W, summary: "Disconnect AWS WAF (the stored credentials are deleted)", tag, output: WafDisconnected, response: "Disconnected" },
    {
      method: "get",
      path: `${W}/web-acls`,
      summary: "List web ACLs with their rules",
      tag,
      output: WafWebAclList,
      response: "Web ACLs of the connected region and scope",
    },
    {
      method: "get",
      path: `${W}/ip-sets`,
      summary: "List IP sets with their addresses",
      tag,
      output: WafIpSetList,
      response: "IP sets, their addresses and the rules referencing them",
    },
    {
      method: "get",
      path: `${W}/ip-sets/:ipSetId/sampled-requests`,
      summary: "Requests AWS sampled in the last 3 hours for the rules referencing the IP set",
      tag,
      input: IpSetIdInput,
      output: WafSampledRequestList,
      response: "Sampled requests, each client IP with the exceptions seen from it",
    },
    {
      method: "put",
      path: `${W}/block-list`,
      summary: "Choose the block-list IP set",
      tag,
      input: SetBlockListInput,
      output: WafConnectionView,
      response: "The connection with its block list",
    },
    {
      method: "post",
      path: `${W}/blocks`,
      summary: "Block an address (added as /32 or /128; already blocked is a no-op)",
      tag,
      input: BlockIpInput,
      output: WafBlockResult,
      response: "The IP set and whether it changed",
      status: 201,
    },
    {
      method: "delete",
      path: `${W}/blocks/:ip`,
      summary: "Unblock an address (a CIDR's slash percent-encoded; absent is a no-op)",
      tag,
      input: BlockIpInput.pick({ ip: true, ipSetId: true }),
      output: WafBlockResult,
      response: "The IP set and whether it changed",
    },
    {
      method: "get",
      path: `${W}/audit`,
      summary: "Block and unblock history, newest first",
      tag,
      input: ListWafAuditInput,
      output: WafAuditList,
      response: "Audit entries",
    },
  ];
}
