import { ApiTokenIdInput, CreateApiTokenInput } from "../../shared/api-token.inputs";
import { orgProcedure, router } from "../trpc/init";
import { createApiToken, listApiTokens, revokeApiToken } from "./api-token.service";

/** Organization API tokens, managed in organization settings by owners and admins. */
export const apiTokenRouter = router({
  list: orgProcedure.query(({ ctx }) => listApiTokens(ctx)),
  create: orgProcedure.input(CreateApiTokenInput).mutation(({ ctx, input }) => createApiToken(ctx, input)),
  revoke: orgProcedure.input(ApiTokenIdInput).mutation(({ ctx, input }) => revokeApiToken(ctx, input.tokenId)),
});
