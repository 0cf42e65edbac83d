import { createFileRoute, Outlet, type ErrorComponentProps } from "@tanstack/react-router";
import { AppShell } from "@/client/components/app-shell";
import { ErrorView } from "@/client/components/error-view";
import { NotFoundView } from "@/client/components/not-found-view";

export const Route = createFileRoute("/_authenticated/dashboard")({
  component: DashboardLayout,
  // Failures keep the header, so the user can switch organization or navigate away.
  errorComponent: (props: ErrorComponentProps) => (
    <AppShell>
      <ErrorView {...props} />
    </AppShell>
  ),
  // Unmatched paths under /dashboard render in this layout's outlet, inside the header frame.
  notFoundComponent: () => <NotFoundView />,
});

function DashboardLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}
