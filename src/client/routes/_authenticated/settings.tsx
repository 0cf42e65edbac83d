import { createFileRoute, Link, Outlet, type ErrorComponentProps } from "@tanstack/react-router";
import { Building2Icon, CreditCardIcon, ShieldIcon, UserIcon } from "lucide-react";
import { AppShell } from "@/client/components/app-shell";
import { ErrorView } from "@/client/components/error-view";
import { NotFoundView } from "@/client/components/not-found-view";
import { cn } from "@/client/lib/utils";

export const Route = createFileRoute("/_authenticated/settings")({
  component: SettingsLayout,
  errorComponent: (props: ErrorComponentProps) => (
    <AppShell>
      <ErrorView {...props} />
    </AppShell>
  ),
  notFoundComponent: () => <NotFoundView />,
});

const SECTIONS = [
  { label: "Profile", to: "/settings/profile", icon: UserIcon },
  { label: "Account", to: "/settings/account", icon: ShieldIcon },
  { label: "Organization", to: "/settings/organization", icon: Building2Icon, exact: true },
  { label: "Billing", to: "/settings/organization/billing", icon: CreditCardIcon },
] as const;

const linkClass =
  "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground";

function SettingsLayout() {
  return (
    <AppShell>
      <div className="grid gap-6 md:grid-cols-[12rem_1fr]">
        <nav aria-label="Settings" className="flex gap-1 overflow-x-auto md:flex-col">
          {SECTIONS.map((section) => (
            <Link
              key={section.to}
              to={section.to}
              activeOptions={{ exact: "exact" in section ? section.exact : false }}
              className={linkClass}
              activeProps={{ className: cn(linkClass, "bg-accent text-foreground") }}
            >
              <section.icon className="size-4" aria-hidden /> {section.label}
            </Link>
          ))}
        </nav>
        <div className="min-w-0">
          <Outlet />
        </div>
      </div>
    </AppShell>
  );
}
