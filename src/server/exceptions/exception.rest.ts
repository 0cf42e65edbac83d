import { ExceptionScope, ListExceptionsInput } from "../../shared/triage.inputs";
import { ExceptionDetail, ExceptionPage } from "../../shared/triage.views";
import { queryOf } from "../rest/input";
import { PROJECT_PATH, type RestRoute } from "../rest/rest-route";
import * as service from "./exception.service";

const EXCEPTIONS = `${PROJECT_PATH}/exceptions`;
const tag = "Exceptions";

/** REST twins of exception.* (spec §7); `exceptions/statistics/daily` is the stats domain's (stats.rest.ts). */
export const exceptionRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: EXCEPTIONS,
    summary: "List exceptions (occurrences), newest first",
    tag,
    input: ListExceptionsInput,
    output: ExceptionPage,
    response: "A page of exceptions",
    access: "organization",
    tokenScope: "event:read",
    handler: (ctx, req) => service.listExceptions(ctx, ListExceptionsInput.parse(queryOf(req))),
  },
  {
    method: "get",
    path: `${EXCEPTIONS}/:exceptionId`,
    summary: "Get an exception with the whole stored occurrence",
    tag,
    input: ExceptionScope,
    output: ExceptionDetail,
    response: "The exception with its stored occurrence",
    access: "organization",
    tokenScope: "event:read",
    handler: (ctx, req) => service.getException(ctx, ExceptionScope.parse(req.params)),
  },
];
