import { orgProcedure, router } from "../trpc/init";
import { organizationStorage } from "./storage.service";

export const storageRouter = router({
  summary: orgProcedure.query(({ ctx }) => organizationStorage(ctx)),
});
