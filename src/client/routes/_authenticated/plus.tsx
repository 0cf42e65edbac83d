import { createFileRoute, Outlet, type ErrorComponentProps } from "@tanstack/react-router";
import { AppShell } from "@/client/components/app-shell";
import { ErrorView } from "@/client/components/error-view";
import { NotFoundView } from "@/client/components/not-found-view";

/** The plan screens (spec §2: /plus/ and /plus/success) inside the app's frame. */
export const Route = createFileRoute("/_authenticated/plus")({
  component: () => (
    <AppShell>
      <Outlet />
    </AppShell>
  ),
  errorComponent: (props: ErrorComponentProps) => (
    <AppShell>
      <ErrorView {...props} />
    </AppShell>
  ),
  notFoundComponent: () => <NotFoundView />,
});
