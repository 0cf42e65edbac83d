import { Link, useRouterState, type LinkProps } from "@tanstack/react-router";
import { MenuIcon } from "lucide-react";
import { Logo } from "./logo";
import { OrganizationSwitcher } from "./organization-switcher";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu } from "./user-menu";
import { Button } from "./ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "./ui/dropdown-menu";
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
  { label: "Releases", to: "/dashboard/releases" },
  { label: "Integrations", to: "/dashboard/integrations" },
  { label: "Chat", to: "/dashboard/chat" },
  { label: "Settings", to: "/settings" },
];

const linkClass = "rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground";

/**
 * One row at every width: below `lg` the navigation folds into a menu button, the logo keeps its
 * mark only and the organization switcher shrinks, so a 390 px phone neither scrolls sideways nor
 * pushes the account menu off screen.
 */
export function AppHeader() {
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/70" data-testid="app-header">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-3 sm:gap-3 sm:px-4">
        <CompactNav />
        <Logo compact />
        <span className="hidden text-muted-foreground/50 sm:inline" aria-hidden>
          /
        </span>
        <div className="min-w-0 shrink">
          <OrganizationSwitcher />
        </div>
        <nav aria-label="Main" className="ml-2 hidden items-center gap-1 lg:flex">
          {NAV_ITEMS.map((item) => (
            <Link
              key={item.to}
              to={item.to}
              activeOptions={{ exact: item.exact ?? false }}
              className={linkClass}
              activeProps={{ className: cn(linkClass, "bg-accent text-foreground") }}
            >
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="ml-auto flex shrink-0 items-center gap-1">
          <ThemeToggle />
          <UserMenu />
        </div>
      </div>
    </header>
  );
}

/** The navigation below `lg`: a menu button listing the same screens, the current one marked. */
function CompactNav() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const isActive = (item: NavItem) => (item.exact ? pathname === item.to || pathname === `${item.to}/` : pathname.startsWith(item.to));
  // The longest matching prefix wins: /dashboard/issues is Issues, not also Dashboard.
  const active = NAV_ITEMS.filter(isActive).sort((a, b) => b.to.length - a.to.length)[0];
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="shrink-0 lg:hidden" aria-label="Open navigation" data-testid="nav-menu">
          <MenuIcon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-56" collisionPadding={8}>
        {NAV_ITEMS.map((item) => (
          <DropdownMenuItem key={item.to} asChild>
            <Link
              to={item.to}
              className={cn(item === active && "bg-accent font-medium")}
              aria-current={item === active ? "page" : undefined}
              data-testid="nav-menu-item"
            >
              {item.label}
            </Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
