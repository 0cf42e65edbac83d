import { useNavigate, useRouter } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Trash2Icon } from "lucide-react";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { organizationsQueryOptions, switchOrganization } from "@/client/lib/organization";
import { usePermissions } from "@/client/lib/use-permissions";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import type { OrganizationCardProps } from "./types";

/** Offered to a role holding organization:delete (of the built-in roles, owners only: spec §6). */
export function DeleteOrganizationCard({ organization }: OrganizationCardProps) {
  const { can } = usePermissions();
  const queryClient = useQueryClient();
  const router = useRouter();
  const navigate = useNavigate();
  const remove = useToastMutation(
    async () => {
      // Read before the switch below re-renders this card with another organization.
      const { id, name } = organization;
      await unwrap(authClient.organization.delete({ organizationId: id }));
      // Continue in another organization when there is one, else back to onboarding.
      const remaining = await queryClient.fetchQuery({ ...organizationsQueryOptions(), staleTime: 0 });
      const next = remaining.find((candidate) => candidate.id !== id) ?? null;
      await switchOrganization(queryClient, next?.id ?? null);
      return { next, name };
    },
    {
      success: ({ name }) => `${name} was deleted`,
      onSuccess: async ({ next }) => {
        await navigate({ to: next ? "/dashboard" : "/onboarding", replace: true });
        await router.invalidate();
      },
    },
  );
  if (!can("organization:delete")) return null;

  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>Delete organization</CardTitle>
        <CardDescription>Deletes the organization with its projects, members, invitations and teams. This cannot be undone.</CardDescription>
      </CardHeader>
      <CardContent>
        <ConfirmDialog
          title={`Delete ${organization.name}?`}
          description="All of its projects stop accepting events, and everything stored for them is removed."
          confirmLabel="Delete organization"
          destructive
          confirmText={organization.name}
          onConfirm={() => remove.mutateAsync(undefined)}
          testId="delete-organization-dialog"
          trigger={
            <Button variant="destructive" data-testid="delete-organization">
              <Trash2Icon /> Delete organization
            </Button>
          }
        />
      </CardContent>
    </Card>
  );
}
