import { z } from "zod";
import { ISSUES_PAGE_SIZE } from "@/shared/constants";
import { ISSUE_SEVERITIES, ISSUE_SORT_FIELDS, ISSUE_STATUSES, type ListIssuesInputRaw } from "@/shared/triage.inputs";
import { endOfDay, startOfDay } from "@/client/lib/format";
import { dayParam, environmentsParam, pageParam, projectIdParam, sizeParam, sortParam, textParam } from "@/client/lib/search-params";

export const DEFAULT_ISSUE_SORT = "lastSeen:DESC";

/** The issue list's search params (spec §2 "Issues list search params", plus the filters). */
export const IssuesSearch = z.object({
  projectId: projectIdParam,
  sort: sortParam(ISSUE_SORT_FIELDS, DEFAULT_ISSUE_SORT),
  page: pageParam,
  size: sizeParam(ISSUES_PAGE_SIZE),
  environments: environmentsParam,
  /** Last seen within these UTC days, inclusive. */
  from: dayParam,
  to: dayParam,
  status: z.enum(ISSUE_STATUSES).optional().catch(undefined),
  severity: z.enum(ISSUE_SEVERITIES).optional().catch(undefined),
  query: textParam,
});
export type IssuesSearch = z.output<typeof IssuesSearch>;
export type IssuesSearchInput = z.input<typeof IssuesSearch>;

/** Defaults left out of the URL, so a plain /dashboard/issues link and the default view agree. */
export const ISSUES_SEARCH_DEFAULTS = { sort: DEFAULT_ISSUE_SORT, page: 1, size: ISSUES_PAGE_SIZE };

export function issueListInput(projectId: string, search: IssuesSearch): ListIssuesInputRaw {
  return {
    projectId,
    page: search.page,
    size: search.size,
    sort: search.sort,
    status: search.status ? [search.status] : undefined,
    severity: search.severity ? [search.severity] : undefined,
    environments: search.environments,
    dateFrom: search.from ? startOfDay(search.from) : undefined,
    dateTo: search.to ? endOfDay(search.to) : undefined,
    query: search.query || undefined,
  };
}

export function hasIssueFilters(search: IssuesSearch): boolean {
  return Boolean(search.status || search.severity || search.environments?.length || search.from || search.to || search.query);
}
