import { z } from "zod";
import { emptyToUndefined, pageInput } from "./paging";
import { ProjectIdInput } from "./project.inputs";
import { IssueScope } from "./triage.inputs";

export const RELEASES_PAGE_SIZE = 20;
export const RELEASE_STATUS_FILTERS = ["open", "archived", "all"] as const;
export type ReleaseStatusFilter = (typeof RELEASE_STATUS_FILTERS)[number];

/** As sentry-cli names a release (`releases new <version>`); the Sentry tool API caps it the same. */
export const ReleaseVersion = z.string().trim().min(1, "Please name a release").max(250, "Release versions are at most 250 characters");

/**
 * An environment as the SDK sent it (`production`, `prod-eu`…), not a bucket: release health keeps
 * the SDK's name (release_health_hourly.environment), so the filter names it the same way.
 */
const ReleaseEnvironment = z.preprocess(emptyToUndefined, z.string().max(200, "Environment names are at most 200 characters").optional());

/** A project's releases, newest first. Archived ones are hidden unless `status` asks for them. */
export const ListReleasesInput = ProjectIdInput.extend({
  ...pageInput(RELEASES_PAGE_SIZE),
  environment: ReleaseEnvironment,
  status: z.preprocess(emptyToUndefined, z.enum(RELEASE_STATUS_FILTERS, { message: "status is open, archived or all" }).default("open")),
});
export type ListReleasesInput = z.infer<typeof ListReleasesInput>;
export type ListReleasesFormInput = z.input<typeof ListReleasesInput>;

/** One release of the project (its health optionally of one environment). */
export const ReleaseInput = ProjectIdInput.extend({ version: ReleaseVersion, environment: ReleaseEnvironment });
export type ReleaseInput = z.infer<typeof ReleaseInput>;

/** The environments release health has seen for a project (the screens' filter). */
export const ReleaseEnvironmentsInput = ProjectIdInput;
export type ReleaseEnvironmentsInput = z.infer<typeof ReleaseEnvironmentsInput>;

/** The commits of an issue's first release that touched the files of its stack. */
export const SuspectCommitsInput = IssueScope;
export type SuspectCommitsInput = z.infer<typeof SuspectCommitsInput>;
