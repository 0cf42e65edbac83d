import { z } from "zod";
import { EVENT_SORT_FIELDS } from "@/shared/triage.inputs";
import { EVENTS_PAGE_SIZE } from "@/shared/constants";
import { dayParam, pageParam, projectIdParam, sizeParam, sortParam, textParam } from "@/client/lib/search-params";

export const DEFAULT_EVENT_SORT = "createdAt:DESC";

/** Spec §2 "Events list search params", plus the name and date filters of the API. */
export const EventsSearch = z.object({
  projectId: projectIdParam,
  sort: sortParam(EVENT_SORT_FIELDS, DEFAULT_EVENT_SORT),
  page: pageParam,
  size: sizeParam(EVENTS_PAGE_SIZE),
  name: textParam,
  from: dayParam,
  to: dayParam,
});
export type EventsSearch = z.output<typeof EventsSearch>;
export type EventsSearchInput = z.input<typeof EventsSearch>;
