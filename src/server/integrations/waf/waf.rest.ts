import { Router } from "express";
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
  const ctxOf = (ctx: Parameters<Parameters<typeof orgRoute>[1]>[0]) => ({ db: ctx.db, org: ctx.org, waf: ctx.waf });
  routes.get(
    INTEGRATIONS_PATH,
    orgRoute(services, (ctx) => listIntegrations(ctxOf(ctx))),
  );
  routes.get(
    WAF_PATH,
    orgRoute(services, (ctx) => getWafConnection(ctxOf(ctx))),
  );
  routes.put(
    WAF_PATH,
    orgRoute(services, (ctx, req) => connectWaf(ctxOf(ctx), bodyOf(req))),
  );
  routes.delete(
    WAF_PATH,
    orgRoute(services, (ctx) => disconnectWaf(ctxOf(ctx))),
  );
  routes.get(
    `${WAF_PATH}/web-acls`,
    orgRoute(services, (ctx) => listWebAcls(ctxOf(ctx))),
  );
  routes.get(
    `${WAF_PATH}/ip-sets`,
    orgRoute(services, (ctx) => listIpSets(ctxOf(ctx))),
  );
  routes.get(
    `${WAF_PATH}/ip-sets/:ipSetId/sampled-requests`,
    orgRoute(services, (ctx, req) => sampledRequests(ctxOf(ctx), queryOf(req))),
  );
  routes.put(
    `${WAF_PATH}/block-list`,
    orgRoute(services, (ctx, req) => setBlockList(ctxOf(ctx), bodyOf(req))),
  );
  routes.post(
    `${WAF_PATH}/blocks`,
    orgRoute(services, (ctx, req) => blockIp(ctxOf(ctx), bodyOf(req)), 201),
  );
  // The address is one path segment: a CIDR's slash arrives percent-encoded (203.0.113.0%2F24).
  routes.delete(
    `${WAF_PATH}/blocks/:ip`,
    orgRoute(services, (ctx, req) => unblockIp(ctxOf(ctx), { ...queryOf(req), ...bodyOf(req) })),
  );
  routes.get(
    `${WAF_PATH}/audit`,
    orgRoute(services, (ctx, req) => listWafAudit(ctxOf(ctx), queryOf(req))),
  );
  return routes;
}
