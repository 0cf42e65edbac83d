import { ListEventsInput } from "../../shared/triage.inputs";
import { orgProcedure, router } from "../trpc/init";
import * as service from "./event.service";

export const eventRouter = router({
  list: orgProcedure.input(ListEventsInput).query(({ ctx, input }) => service.listEvents(ctx, input)),
});
