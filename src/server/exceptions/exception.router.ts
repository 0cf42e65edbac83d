import { ExceptionScope, ListExceptionsInput } from "../../shared/triage.inputs";
import { orgProcedure, router } from "../trpc/init";
import * as service from "./exception.service";

export const exceptionRouter = router({
  list: orgProcedure.input(ListExceptionsInput).query(({ ctx, input }) => service.listExceptions(ctx, input)),
  get: orgProcedure.input(ExceptionScope).query(({ ctx, input }) => service.getException(ctx, input)),
});
