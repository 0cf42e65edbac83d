import { notFound, redirect } from "@tanstack/react-router";
import type { QueryClient } from "@tanstack/react-query";
import type { LinkTargetInput } from "@/shared/link.inputs";
import { switchOrganization } from "./organization";
import { trpcErrorCode, type TrpcUtils } from "./trpc";

/** What a screen's loader hands over: its context, the location being loaded, and whether it only preloads. */
export interface LinkLoaderArgs {
  context: { queryClient: QueryClient; trpc: TrpcUtils; activeOrganizationId: string | null };
  location: { href: string };
  preload: boolean;
}

/**
 * A link names an issue, exception, project or chat, not its organization — alert mails sent
 * long ago among them — while every read is scoped by the session's active organization. When
 * what a link names is not found there, the screen asks which of the user's organizations holds
 * it (`link.locate`, the user's memberships only), makes that one active, and loads the same
 * location again, so every layout reads the new session. Answers false when no other of the
 * user's organizations holds it: the screen shows its not-found. A preload (a hovered link) never
 * switches organization; it answers false and the navigation itself asks again.
 */
export async function followLinkToItsOrganization({ context, location, preload }: LinkLoaderArgs, target: LinkTargetInput): Promise<false> {
  if (preload) return false;
  let organizationId: string;
  try {
    ({ organizationId } = await context.trpc.link.locate.fetch(target, { staleTime: 0 }));
  } catch (error) {
    if (trpcErrorCode(error) === "NOT_FOUND") return false;
    throw error;
  }
  // Found in the active organization after all (another project's, say): the screen's own rules apply.
  if (organizationId === context.activeOrganizationId) return false;
  await switchOrganization(context.queryClient, organizationId);
  throw redirect({ href: location.href, replace: true });
}

/** `followLinkToItsOrganization`, else the plain not-found (spec §8). */
export async function followLinkOrNotFound(args: LinkLoaderArgs, target: LinkTargetInput): Promise<never> {
  await followLinkToItsOrganization(args, target);
  throw notFound();
}
