import { orgProcedure, router } from "../trpc/init";
import { agentStatus, agentUsage } from "./agent-status.service";

/** The agent's configuration and usage, for the chat screens and organization settings. */
export const agentRouter = router({
  status: orgProcedure.query(({ ctx }) => agentStatus(ctx)),
  usage: orgProcedure.query(({ ctx }) => agentUsage(ctx)),
});
