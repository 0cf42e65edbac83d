import { useNavigate, useRouter } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Trash2Icon } from "lucide-react";
import { trpc } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { organizationsQueryOptions, switchOrganization } from "@/client/lib/organization";
import { usePermissions } from "@/client/lib/use-permissions";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import type { OrganizationCardProps } from "./types";

const counted = (count: number, noun: string) => `${count.toLocaleString("en")} ${noun}${count === 1 ? "" : "s"}`;

/**
 * What the confirmation names: how many projects, issues and occurrences go. Counted when the
 * dialog opens (its content mounts then), not on every visit of the settings page.
 */
function WhatGoes() {
  const impact = trpc.deletion.organizationImpact.useQuery();
  if (!impact.data) return <>Everything stored for its projects is removed for good.</>;
  const { projects, issues, occurrences } = impact.data;
  return (
    <>
      Its {counted(projects, "project")}, {counted(issues, "issue")} and {counted(occurrences, "occurrence")} are removed for good.
    </>
  );
}

/**
 * Offered to a role holding organization:delete (of the built-in roles, owners only: spec §6). The
 * server takes every membership away at once and removes the data in the background (the deletion
 * job), so the person moves on at once, as before.
 */
export function DeleteOrganizationCard({ organization }: OrganizationCardProps) {
  const { can } = usePermissions();
  const allowed = can("organization:delete");
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const router = useRouter();
  const navigate = useNavigate();
  const remove = useToastMutation(
    async () => {
      // Read before the switch below re-renders this card with another organization.
      const { id, name } = organization;
      await utils.client.deletion.deleteOrganization.mutate({ organizationId: id });
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
  if (!allowed) return null;

  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>Delete organization</CardTitle>
        <CardDescription>Deletes the organization with its projects, members, invitations and teams. This cannot be undone.</CardDescription>
      </CardHeader>
      <CardContent>
        <ConfirmDialog
          title={`Delete ${organization.name}?`}
          description={
            <>
              Every member loses access at once and all of its projects stop accepting events. <WhatGoes />
            </>
          }
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
