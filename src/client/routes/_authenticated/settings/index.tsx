import { createFileRoute, redirect } from "@tanstack/react-router";

/** /settings itself has no screen: it opens the first section. */
export const Route = createFileRoute("/_authenticated/settings/")({
  beforeLoad: () => {
    throw redirect({ to: "/settings/profile", replace: true });
  },
});
