import { createFileRoute } from "@tanstack/react-router";
import { fullOrganizationQueryOptions } from "@/client/lib/organization";
import { useFullOrganization } from "@/client/lib/use-organization";
import { useRequiredSession } from "@/client/lib/session";
import { PageHeader } from "@/client/components/page-header";
import { NotFoundView } from "@/client/components/not-found-view";
import { PendingView } from "@/client/components/pending-view";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { OrganizationGeneralCard } from "./-components/organization-general-card";
import { MembersCard } from "./-components/members-card";
import { InviteMemberCard } from "./-components/invite-member-card";
import { PendingInvitationsCard } from "./-components/pending-invitations-card";
import { TeamsCard } from "./-components/teams-card";
import { ApiTokensCard } from "./-components/api-tokens-card";
import { RepositoriesCard } from "./-components/repositories-card";
import { OrganizationRolesCard } from "./-components/organization-roles-card";
import { DeleteOrganizationCard } from "./-components/delete-organization-card";
import { AiUsageCard } from "./-components/ai-usage-card";
import { StorageCard } from "./-components/storage-card";
import { OrganizationDataPrivacyCard } from "./-components/data-privacy-card";
import { DeletionsCard } from "./-components/deletions-card";
import { EraseUserDataCard } from "./-components/erase-user-data-card";

export const Route = createFileRoute("/_authenticated/settings/organization/")({
  loader: async ({ context }) => {
    if (context.activeOrganizationId) await context.queryClient.ensureQueryData(fullOrganizationQueryOptions(context.activeOrganizationId));
  },
  component: OrganizationSettingsScreen,
});

function OrganizationSettingsScreen() {
  const { activeOrganizationId } = Route.useRouteContext();
  if (!activeOrganizationId) {
    return (
      <>
        <PageHeader title="Organization" />
        <NotFoundView type="organization" />
      </>
    );
  }
  return <OrganizationSettings />;
}

function OrganizationSettings() {
  const organization = useFullOrganization();
  const { user } = useRequiredSession();

  if (organization.isPending) return <PendingView />;
  if (organization.error) return <QueryErrorAlert error={organization.error} onRetry={() => void organization.refetch()} />;
  if (!organization.data) return <NotFoundView />;

  const props = { organization: organization.data, currentUserId: user.id };
  return (
    <div className="grid max-w-4xl gap-6 grid-cols-[minmax(0,1fr)]">
      <PageHeader title="Organization" description={`Settings, members and teams of ${organization.data.name}.`} />
      <OrganizationGeneralCard {...props} />
      <MembersCard {...props} />
      <OrganizationRolesCard {...props} />
      <InviteMemberCard {...props} />
      <PendingInvitationsCard {...props} />
      <TeamsCard {...props} />
      <ApiTokensCard {...props} />
      <RepositoriesCard />
      <OrganizationDataPrivacyCard />
      <AiUsageCard />
      <StorageCard />
      <EraseUserDataCard />
      <DeletionsCard />
      <DeleteOrganizationCard {...props} />
    </div>
  );
}
