import { useNavigate, useRouter } from "@tanstack/react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Building2Icon, CheckIcon, ChevronsUpDownIcon, Loader2Icon, PlusIcon } from "lucide-react";
import { organizationsQueryOptions, switchOrganization } from "@/client/lib/organization";
import { useActiveOrganizationId } from "@/client/lib/use-organization";
import { errorMessage } from "@/client/lib/api-error";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { Button } from "./ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "./ui/dropdown-menu";
import { Skeleton } from "./ui/skeleton";

/**
 * Lists organizations through TanStack Query rather than authClient.useListOrganizations(): the
 * auth client's own store is not refreshed when an invitation is accepted, while this cache is
 * reset by every organization change (see switchOrganization).
 */
export function OrganizationSwitcher() {
  const organizations = useQuery(organizationsQueryOptions());
  const activeOrganizationId = useActiveOrganizationId();
  const queryClient = useQueryClient();
  const router = useRouter();
  const navigate = useNavigate();
  const switchTo = useToastMutation(
    async ({ organizationId }: { organizationId: string; name: string }) => {
      await switchOrganization(queryClient, organizationId);
      // Screens of the previous organization (a project page, say) would not exist here.
      await navigate({ to: "/dashboard" });
      await router.invalidate();
    },
    { success: (_data, { name }) => `Switched to ${name}` },
  );
  const switchingTo = switchTo.isPending ? switchTo.variables.organizationId : null;

  if (organizations.isPending && !organizations.data) return <Skeleton className="h-8 w-36" />;
  const list = organizations.data ?? [];
  const active = list.find((organization) => organization.id === activeOrganizationId);

  const select = (organizationId: string, name: string) => {
    if (organizationId !== activeOrganizationId) switchTo.mutate({ organizationId, name });
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" data-testid="org-switcher" className="w-full max-w-56 min-w-0 justify-between gap-2">
          {switchingTo ? <Loader2Icon className="animate-spin" /> : <Building2Icon />}
          <span className="truncate">{active?.name ?? (list.length > 0 ? "Select organization" : "No organization")}</span>
          <ChevronsUpDownIcon className="opacity-50" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" collisionPadding={8} className="w-64 max-w-[calc(100vw-1rem)]">
        <DropdownMenuLabel className="text-xs text-muted-foreground">Organizations</DropdownMenuLabel>
        {organizations.error ? <p className="px-2 py-1.5 text-sm text-destructive">{errorMessage(organizations.error)}</p> : null}
        {list.map((organization) => (
          <DropdownMenuItem key={organization.id} data-testid="org-switcher-item" onSelect={() => select(organization.id, organization.name)}>
            <Building2Icon />
            <span className="flex-1 truncate">{organization.name}</span>
            {organization.id === activeOrganizationId ? <CheckIcon className="text-foreground" aria-label="Active" /> : null}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem data-testid="org-switcher-create" onSelect={() => void navigate({ to: "/onboarding", search: { step: "organization" } })}>
          <PlusIcon /> Create organization
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
