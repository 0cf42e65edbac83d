import type { QueryClient } from "@tanstack/react-query";
import { clearSessionData, refreshSession } from "./session";
import { organizationsQueryOptions } from "./organization";

/**
 * The invitation link in a mail points at /dashboard/invites?invitationId=…; a signed-out visitor
 * goes through login first. The login redirect param may only be /onboarding (spec §5), so the
 * invitation page is remembered for this tab instead.
 */
const PENDING_INVITE_KEY = "faultline-pending-invite";

export function rememberPendingInvite(href: string) {
  try {
    window.sessionStorage.setItem(PENDING_INVITE_KEY, href);
  } catch {
    // The user can still open the invitation from the mail again.
  }
}

function takePendingInvite(): string | null {
  try {
    const href = window.sessionStorage.getItem(PENDING_INVITE_KEY);
    window.sessionStorage.removeItem(PENDING_INVITE_KEY);
    // Only ever our own invitations or device page: this value came from the address bar.
    return href && (href.startsWith("/dashboard/invites") || href.startsWith("/device")) ? href : null;
  } catch {
    return null;
  }
}

/**
 * Where a user goes right after signing in: a remembered invitation, else onboarding when they
 * belong to no organization, else the allowed redirect or the dashboard.
 */
export async function destinationAfterSignIn(queryClient: QueryClient, redirect?: string): Promise<string> {
  // Nothing cached for a previous user may leak into this session.
  clearSessionData(queryClient);
  await refreshSession(queryClient);
  const invite = takePendingInvite();
  if (invite) return invite;
  const organizations = await queryClient.fetchQuery({ ...organizationsQueryOptions(), staleTime: 0 });
  if (organizations.length === 0) return "/onboarding";
  return redirect ?? "/dashboard";
}
