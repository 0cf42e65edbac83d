import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod";
import { PageHeader } from "@/client/components/page-header";
import { InvitationList } from "@/client/components/invitation-list";
import { Card, CardContent } from "@/client/components/ui/card";

const InvitesSearch = z.object({
  /** Set by the invitation mail's link: that invitation is highlighted. */
  invitationId: z.string().optional().catch(undefined),
});

export const Route = createFileRoute("/_authenticated/dashboard/invites")({
  validateSearch: (search) => InvitesSearch.parse(search),
  component: InvitesScreen,
});

function InvitesScreen() {
  const { invitationId } = Route.useSearch();
  return (
    <div className="mx-auto grid max-w-3xl gap-6 grid-cols-[minmax(0,1fr)]">
      <PageHeader title="Invitations" description="Organizations that invited your email address." />
      <Card>
        <CardContent>
          <InvitationList highlightId={invitationId} />
        </CardContent>
      </Card>
    </div>
  );
}
