import { createFileRoute, Outlet, redirect } from "@tanstack/react-router";
import { ensureActiveOrganization } from "@/client/lib/organization";
import { rememberPendingInvite } from "@/client/lib/after-sign-in";

/** Every screen below needs a session; without one the user is sent to login (spec §2). */
export const Route = createFileRoute("/_authenticated")({
  beforeLoad: async ({ context, location }) => {
    if (!context.session) {
      // An invitation or a device code opened signed out comes back after sign-in.
      if (location.pathname === "/dashboard/invites" || location.pathname === "/device") rememberPendingInvite(location.href);
      throw redirect({ to: "/auth/login", replace: true });
    }
    const activeOrganizationId = await ensureActiveOrganization(context.queryClient, context.session);
    return { session: context.session, activeOrganizationId };
  },
  component: Outlet,
});
