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
import { listIpSets, listWebAcls, sampledRequests, setBlockList } from "./waf-resources.service";

/** The integrations screen's list (REST `GET /integrations`). */
export const integrationRouter = router({
  list: orgProcedure.query(({ ctx }) => listIntegrations(ctx)),
});

/** The AWS WAF screens; every verb is in waf-*.service.ts, shared with waf.rest.ts. */
export const wafRouter = router({
  setup: orgProcedure.query(({ ctx }) => getWafSetup(ctx)),
  test: orgProcedure.input(ConnectWafInput).mutation(({ ctx, input }) => testWafConnection(ctx, input)),
  connect: orgProcedure.input(ConnectWafInput).mutation(({ ctx, input }) => connectWaf(ctx, input)),
  disconnect: orgProcedure.mutation(({ ctx }) => disconnectWaf(ctx)),
  webAcls: orgProcedure.query(({ ctx }) => listWebAcls(ctx)),
  ipSets: orgProcedure.query(({ ctx }) => listIpSets(ctx)),
  sampledRequests: orgProcedure.input(IpSetIdInput).query(({ ctx, input }) => sampledRequests(ctx, input)),
  setBlockList: orgProcedure.input(SetBlockListInput).mutation(({ ctx, input }) => setBlockList(ctx, input)),
  block: orgProcedure.input(BlockIpInput).mutation(({ ctx, input }) => blockIp(ctx, input)),
  unblock: orgProcedure.input(UnblockIpInput).mutation(({ ctx, input }) => unblockIp(ctx, input)),
  blockStatus: orgProcedure.input(BlockStatusInput).query(({ ctx, input }) => blockStatus(ctx, input)),
  audit: orgProcedure.input(ListWafAuditInput).query(({ ctx, input }) => listWafAudit(ctx, input)),
});
