import { Router } from "express";
import { BlockIpInput, ConnectWafInput, IpSetIdInput, ListWafAuditInput, SetBlockListInput, UnblockIpInput } from "../../../shared/waf.inputs";
import type { AppServices } from "../../context";
import { orgRoute } from "../../rest/context";
import { bodyOf, queryOf } from "../../rest/input";
import { blockIp, listWafAudit, unblockIp } from "./waf-block.service";
import { connectWaf, disconnectWaf, getWafConnection, listIntegrations } from "./waf-connection.service";
import { listIpSets, listWebAcls, sampledRequests, setBlockList } from "./waf-resources.service";

export const INTEGRATIONS_PATH = "/organizations/:orgId/integrations";
export const WAF_PATH = `${INTEGRATIONS_PATH}/aws/waf`;

/** REST twins of the integration and waf procedures (issue 16), over the same services. */
export function wafRestRoutes(services: AppServices) {
  const routes = Router({ mergeParams: true });
  routes.get(
    INTEGRATIONS_PATH,
    orgRoute(services, (ctx) => listIntegrations(ctx)),
  );
  routes.get(
    WAF_PATH,
    orgRoute(services, (ctx) => getWafConnection(ctx)),
  );
  routes.put(
    WAF_PATH,
    orgRoute(services, (ctx, req) => connectWaf(ctx, ConnectWafInput.parse(bodyOf(req)))),
  );
  routes.delete(
    WAF_PATH,
    orgRoute(services, (ctx) => disconnectWaf(ctx)),
  );
  routes.get(
    `${WAF_PATH}/web-acls`,
    orgRoute(services, (ctx) => listWebAcls(ctx)),
  );
  routes.get(
    `${WAF_PATH}/ip-sets`,
    orgRoute(services, (ctx) => listIpSets(ctx)),
  );
  routes.get(
    `${WAF_PATH}/ip-sets/:ipSetId/sampled-requests`,
    orgRoute(services, (ctx, req) => sampledRequests(ctx, IpSetIdInput.parse(queryOf(req)))),
  );
  routes.put(
    `${WAF_PATH}/block-list`,
    orgRoute(services, (ctx, req) => setBlockList(ctx, SetBlockListInput.parse(bodyOf(req)))),
  );
  routes.post(
    `${WAF_PATH}/blocks`,
    orgRoute(services, (ctx, req) => blockIp(ctx, BlockIpInput.parse(bodyOf(req))), 201),
  );
  // The address is one path segment: a CIDR's slash arrives percent-encoded (203.0.113.0%2F24).
  routes.delete(
    `${WAF_PATH}/blocks/:ip`,
    orgRoute(services, (ctx, req) => unblockIp(ctx, UnblockIpInput.parse({ ...queryOf(req), ...bodyOf(req) }))),
  );
  routes.get(
    `${WAF_PATH}/audit`,
    orgRoute(services, (ctx, req) => listWafAudit(ctx, ListWafAuditInput.parse(queryOf(req)))),
  );
  return routes;
}
