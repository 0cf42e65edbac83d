import {
  BlockIpInput,
  BlockStatusInput,
  ConnectWafInput,
  IpSetIdInput,
  ListWafAuditInput,
  SetBlockListInput,
  UnblockIpInput,
} from "../../../shared/waf.inputs";
import { orgProcedure, router } from "../../trpc/init";
import { blockIp, blockStatus, listWafAudit, unblockIp } from "./waf-block.service";
import { connectWaf, disconnectWaf, getWafSetup, listIntegrations, testWafConnection } from "./waf-connection.service";
import type { WafContext } from "./waf-context";
import { listIpSets, listWebAcls, sampledRequests, setBlockList } from "./waf-resources.service";

const wafCtx = (ctx: WafContext): WafContext => ({ db: ctx.db, org: ctx.org, waf: ctx.waf });

/** The integrations screen's list (REST `GET /integrations`). */
export const integrationRouter = router({
  list: orgProcedure.query(({ ctx }) => listIntegrations(wafCtx(ctx))),
});

/** The AWS WAF screens; every verb is in waf-*.service.ts, shared with waf.rest.ts. */
export const wafRouter = router({
  setup: orgProcedure.query(({ ctx }) => getWafSetup(wafCtx(ctx))),
  test: orgProcedure.input(ConnectWafInput).mutation(({ ctx, input }) => testWafConnection(wafCtx(ctx), input)),
  connect: orgProcedure.input(ConnectWafInput).mutation(({ ctx, input }) => connectWaf(wafCtx(ctx), input)),
  disconnect: orgProcedure.mutation(({ ctx }) => disconnectWaf(wafCtx(ctx))),
  webAcls: orgProcedure.query(({ ctx }) => listWebAcls(wafCtx(ctx))),
  ipSets: orgProcedure.query(({ ctx }) => listIpSets(wafCtx(ctx))),
  sampledRequests: orgProcedure.input(IpSetIdInput).query(({ ctx, input }) => sampledRequests(wafCtx(ctx), input)),
  setBlockList: orgProcedure.input(SetBlockListInput).mutation(({ ctx, input }) => setBlockList(wafCtx(ctx), input)),
  // The services parse again (REST passes raw bodies); tRPC's parse already gave a clear VALIDATION_ERROR.
  block: orgProcedure.input(BlockIpInput).mutation(({ ctx, input }) => blockIp(wafCtx(ctx), input)),
  unblock: orgProcedure.input(UnblockIpInput).mutation(({ ctx, input }) => unblockIp(wafCtx(ctx), input)),
  blockStatus: orgProcedure.input(BlockStatusInput).query(({ ctx, input }) => blockStatus(wafCtx(ctx), input)),
  audit: orgProcedure.input(ListWafAuditInput).query(({ ctx, input }) => listWafAudit(wafCtx(ctx), input)),
});
