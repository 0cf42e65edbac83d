import { notFound } from "@tanstack/react-router";
import { z } from "zod";
import { trpcErrorCode, type TrpcUtils } from "@/client/lib/trpc";

/**
 * The screens under one issue need its project (spec §2: projectId, a uuid). A link without it (or
 * with a mangled one) is not a dead end: the loader asks the server for the issue's project and
 * redirects (`projectOfIssue`), so the parameter is optional here.
 */
export const IssueScopeSearch = z.object({ projectId: z.uuid().optional().catch(undefined) });
export type IssueScopeSearchInput = z.input<typeof IssueScopeSearch>;

export const Uuid = z.uuid();

/** The project of one of the active organization's issues; another organization's issue (or none) is a plain not-found. */
export async function projectOfIssue(trpc: TrpcUtils, issueId: string): Promise<string> {
  try {
    return (await trpc.issue.locate.fetch({ issueId })).projectId;
  } catch (error) {
    if (trpcErrorCode(error) === "NOT_FOUND") throw notFound();
    throw error;
  }
}
