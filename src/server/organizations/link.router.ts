import { LinkTargetInput } from "../../shared/link.inputs";
import { protectedProcedure, router } from "../trpc/init";
import { locateLinkTarget } from "./link-target.service";

/** Links into the product: which of the caller's organizations a linked row belongs to (no active organization needed). */
export const linkRouter = router({
  locate: protectedProcedure.input(LinkTargetInput).query(({ ctx, input }) => locateLinkTarget({ db: ctx.db, userId: ctx.user.id }, input)),
});
