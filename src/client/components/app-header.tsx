import { Link, type LinkProps } from "@tanstack/react-router";
import { Logo } from "./logo";
import { OrganizationSwitcher } from "./organization-switcher";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu } from "./user-menu";
import { cn } from "@/client/lib/utils";

interface NavItem {
  label: string;
  to: NonNullable<LinkProps["to"]>;
  /** Only the exact path marks the item active (the dashboard is every screen's prefix). */
  exact?: boolean;
}

const NAV_ITEMS: NavItem[] = [
  { label: "Dashboard", to: "/dashboard", exact: true },
  { label: "Projects", to: "/dashboard/projects" },
  { label: "Issues", to: "/dashboard/issues" },
  { label: "Exceptions", to: "/dashboard/exceptions" },
  { label: "Events", to: "/dashboard/events" },
  { label: "Chat", to: "/dashboard/chat" },
  { label: "Settings", to: "/settings" },
];

const linkClass = "rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground";

export function AppHeader() {
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-3 px-4">
        <Logo />
        <span className="text-muted-foreground/50" aria-hidden>
          /
        </span>
        <OrganizationSwitcher />
        <nav aria-label="Main" className="ml-2 hidden items-center gap-1 lg:flex">
          <NavLinks />
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <ThemeToggle />
          <UserMenu />
        </div>
      </div>
      <nav aria-label="Main (compact)" className="flex gap-1 overflow-x-auto border-t px-4 py-1.5 lg:hidden">
        <NavLinks />
      </nav>
    </header>
  );
}

function NavLinks() {
  return NAV_ITEMS.map((item) => (
    <Link
      key={item.to}
      to={item.to}
      activeOptions={{ exact: item.exact ?? false }}
      className={linkClass}
      activeProps={{ className: cn(linkClass, "bg-accent text-foreground") }}
    >
      {item.label}
    </Link>
  ));
}
