import { ListEventsInput } from "../../shared/triage.inputs";
import { EventPage } from "../../shared/triage.views";
import { queryOf } from "../rest/input";
import { PROJECT_PATH, type RestRoute } from "../rest/rest-route";
import * as service from "./event.service";

/** REST twin of event.list. */
export const eventRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: `${PROJECT_PATH}/events`,
    summary: "List analytics events",
    tag: "Events",
    input: ListEventsInput,
    output: EventPage,
    response: "A page of analytics events",
    access: "organization",
    tokenScope: "event:read",
    handler: (ctx, req) => service.listEvents(ctx, ListEventsInput.parse(queryOf(req))),
  },
];
