import { z } from "zod";
import { trpcErrorCode } from "@/client/lib/trpc";
import { followLinkOrNotFound, type LinkLoaderArgs } from "@/client/lib/link-organization";

/**
 * The screens under one issue need its project (spec §2: projectId, a uuid). A link without it (or
 * with a mangled one) is not a dead end: the loader asks the server for the issue's project and
 * redirects (`projectOfIssue`), so the parameter is optional here.
 */
export const IssueScopeSearch = z.object({ projectId: z.uuid().optional().catch(undefined) });
export type IssueScopeSearchInput = z.input<typeof IssueScopeSearch>;

export const Uuid = z.uuid();

/**
 * The project of one of the active organization's issues. An issue of another of the user's
 * organizations makes that one active (the loader runs again); anyone else's, or none, is a plain
 * not-found.
 */
export async function projectOfIssue(args: LinkLoaderArgs, issueId: string): Promise<string> {
  try {
    return (await args.context.trpc.issue.locate.fetch({ issueId })).projectId;
  } catch (error) {
    if (trpcErrorCode(error) === "NOT_FOUND") return followLinkOrNotFound(args, { kind: "issue", id: issueId });
    throw error;
  }
}
