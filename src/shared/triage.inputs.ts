// Convention for every *.inputs.ts: `export const XInput = z.object(...)` beside `export type XInput
// = z.infer<typeof XInput>` (the parsed value services take); `XInputRaw = z.input<...>` only where a
// caller builds the unparsed shape (defaults and transforms not yet applied), e.g. the client.
import { z } from "zod";
import { EVENTS_PAGE_SIZE, ISSUE_EXCEPTIONS_PAGE_SIZE, ISSUES_PAGE_SIZE } from "./constants";
import { ENVIRONMENTS } from "./environments";
import { emptyToUndefined, pageInput } from "./paging";
import { sortInput } from "./sort";
import { IsoDay, IsoDateTime } from "./date.inputs";
import { boundedText } from "./text.inputs";

/** In the order lists sort by (OPEN first; LOW < CRITICAL). Transitions: server/issues/issue-state.ts. */
export const ISSUE_STATUSES = ["OPEN", "RESOLVED", "IGNORED"] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];
export const ISSUE_SEVERITIES = ["LOW", "MEDIUM", "HIGH", "CRITICAL"] as const;
export type IssueSeverity = (typeof ISSUE_SEVERITIES)[number];

export const ISSUE_SORT_FIELDS = ["lastSeen", "firstSeen", "eventCount", "userCount", "severity", "status", "title"] as const;
export const EVENT_SORT_FIELDS = ["createdAt", "name"] as const;
export const EXCEPTION_SORT_FIELDS = ["createdAt"] as const;

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());
/** Filters take a few values each (the enums are short); more is a malformed or hostile request. */
export const MAX_LIST_VALUES = 20;
/** A repeatable query param arrives as a string or an array; normalise to an array. */
const list = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => {
      const cleaned = emptyToUndefined(value);
      if (cleaned === undefined) return undefined;
      const array = Array.isArray(cleaned) ? cleaned : String(cleaned).split(",");
      const items = array.map((item) => (typeof item === "string" ? item.trim() : item)).filter((item) => item !== "");
      return items.length > 0 ? items : undefined;
    },
    z.array(schema).max(MAX_LIST_VALUES, `at most ${MAX_LIST_VALUES} values`).optional(),
  );

/** Free-text search: PostgreSQL cannot hold NUL, and a long pattern costs every row it is matched against. */
const searchText = boundedText(200, "must be at most 200 characters");

export const ProjectScope = z.object({ projectId: z.uuid("Invalid project id") });
export type ProjectScope = z.infer<typeof ProjectScope>;
export const IssueScope = ProjectScope.extend({ issueId: z.uuid("Invalid issue id") });
export type IssueScope = z.infer<typeof IssueScope>;
/** An issue named by its id alone (a link without its project): the server says which project it is in. */
export const LocateIssueInput = z.object({ issueId: z.uuid("Invalid issue id") });
export type LocateIssueInput = z.infer<typeof LocateIssueInput>;

export const ListIssuesInput = ProjectScope.extend({
  ...pageInput(ISSUES_PAGE_SIZE),
  sort: sortInput(ISSUE_SORT_FIELDS, "lastSeen:DESC"),
  status: list(z.enum(ISSUE_STATUSES)),
  severity: list(z.enum(ISSUE_SEVERITIES)),
  environments: list(z.enum(ENVIRONMENTS)),
  dateFrom: optional(IsoDateTime),
  dateTo: optional(IsoDateTime),
  query: optional(searchText),
});
export type ListIssuesInput = z.infer<typeof ListIssuesInput>;
export type ListIssuesInputRaw = z.input<typeof ListIssuesInput>;

/** `inRelease: "next"`: resolved in the project's next release (Sentry's inNextRelease); any other value names a release version. */
export const IN_NEXT_RELEASE = "next";
/**
 * "Resolve in a release": `next`, or the version of the first release that has the fix (it must
 * exist in the organization). At most 200 characters, as Sentry's versions; only with RESOLVED.
 */
export const InRelease = boundedText(200, "A release version is at most 200 characters", { length: 1, message: "Name a release version, or next" }).optional();
const inReleaseOnlyWhenResolving = {
  check: (input: { status: IssueStatus; inRelease?: string }) => input.inRelease === undefined || input.status === "RESOLVED",
  message: { message: "inRelease applies only to status RESOLVED", path: ["inRelease"] },
};

export const SetIssueStatusInput = IssueScope.extend({ status: z.enum(ISSUE_STATUSES), inRelease: InRelease }).refine(
  inReleaseOnlyWhenResolving.check,
  inReleaseOnlyWhenResolving.message,
);
export type SetIssueStatusInput = z.infer<typeof SetIssueStatusInput>;
export const SetIssueSeverityInput = IssueScope.extend({ severity: z.enum(ISSUE_SEVERITIES) });
export type SetIssueSeverityInput = z.infer<typeof SetIssueSeverityInput>;
export const BulkSetIssueStatusInput = ProjectScope.extend({
  issueIds: z.array(z.uuid()).min(1, "Select at least one issue").max(100, "At most 100 issues at once"),
  status: z.enum(ISSUE_STATUSES),
  inRelease: InRelease,
}).refine(inReleaseOnlyWhenResolving.check, inReleaseOnlyWhenResolving.message);
export type BulkSetIssueStatusInput = z.infer<typeof BulkSetIssueStatusInput>;

export const ListExceptionsInput = ProjectScope.extend({
  issueId: optional(z.uuid("Invalid issue id")),
  environments: list(z.enum(ENVIRONMENTS)),
  ...pageInput(ISSUE_EXCEPTIONS_PAGE_SIZE),
  sort: sortInput(EXCEPTION_SORT_FIELDS, "createdAt:DESC"),
});
export type ListExceptionsInput = z.infer<typeof ListExceptionsInput>;

export const ExceptionScope = ProjectScope.extend({ exceptionId: z.uuid("Invalid exception id") });
export type ExceptionScope = z.infer<typeof ExceptionScope>;

export const DailyStatsInput = ProjectScope.extend({
  issueId: optional(z.uuid("Invalid issue id")),
  environments: list(z.enum(ENVIRONMENTS)),
  from: IsoDay,
  to: IsoDay,
}).refine((input) => input.from <= input.to, { message: "from must not be after to", path: ["from"] });
export type DailyStatsInput = z.infer<typeof DailyStatsInput>;

export const ListEventsInput = ProjectScope.extend({
  ...pageInput(EVENTS_PAGE_SIZE),
  sort: sortInput(EVENT_SORT_FIELDS, "createdAt:DESC"),
  name: optional(searchText),
  dateFrom: optional(IsoDateTime),
  dateTo: optional(IsoDateTime),
});
export type ListEventsInput = z.infer<typeof ListEventsInput>;
