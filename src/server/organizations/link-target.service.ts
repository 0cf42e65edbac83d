import type { LinkTargetInput } from "../../shared/link.inputs";
import type { RequestContext } from "../context";
import { notFound } from "../errors";
import { selectLinkTargetOrganization } from "./link-target.queries";

/**
 * Which of the caller's organizations holds what a link names (issue 37, item 1). Every read is
 * scoped by the session's active organization, so a link into another of the caller's
 * organizations (an alert mail, a teammate's link) would answer NOT_FOUND; the screens ask this
 * first and make that organization active. It acts in no organization and reads only the
 * caller's memberships: a row of an organization they do not belong to answers NOT_FOUND, exactly
 * like a row that does not exist, so an id reveals nothing.
 */
export async function locateLinkTarget(ctx: Pick<RequestContext, "db"> & { userId: string }, input: LinkTargetInput): Promise<{ organizationId: string }> {
  const organizationId = await selectLinkTargetOrganization(ctx.db, ctx.userId, input.kind, input.id);
  if (!organizationId) throw notFound("Link target");
  return { organizationId };
}
