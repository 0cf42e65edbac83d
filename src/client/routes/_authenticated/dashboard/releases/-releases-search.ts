import { z } from "zod";
import { RELEASE_STATUS_FILTERS, RELEASES_PAGE_SIZE } from "@/shared/release.inputs";
import { pageParam, projectIdParam, sizeParam } from "@/client/lib/search-params";

/** An environment as the SDK named it (release health keeps the SDK's names, not buckets). */
const environmentParam = z.string().trim().min(1).max(200).optional().catch(undefined);

/** The Releases screen's search params: project, environment, open/archived/all, page. */
export const ReleasesSearch = z.object({
  projectId: projectIdParam,
  environment: environmentParam,
  status: z.enum(RELEASE_STATUS_FILTERS).default("open").catch("open"),
  page: pageParam,
  size: sizeParam(RELEASES_PAGE_SIZE),
});
export type ReleasesSearch = z.output<typeof ReleasesSearch>;
export type ReleasesSearchInput = z.input<typeof ReleasesSearch>;

/** One release's screen: its project and, optionally, one environment's health. */
export const ReleaseSearch = z.object({ projectId: projectIdParam, environment: environmentParam });
export type ReleaseSearch = z.output<typeof ReleaseSearch>;
export type ReleaseSearchInput = z.input<typeof ReleaseSearch>;
