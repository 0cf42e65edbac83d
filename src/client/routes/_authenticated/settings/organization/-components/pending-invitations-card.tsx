import { XIcon } from "lucide-react";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { organizationKeys } from "@/client/lib/organization";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";
import type { OrganizationCardProps } from "./types";

export function PendingInvitationsCard({ organization }: OrganizationCardProps) {
  const { can } = usePermissions();
  const canCancel = can("invitation:cancel");
  const cancel = useToastMutation(
    ({ invitationId }: { invitationId: string; email: string }) => unwrap(authClient.organization.cancelInvitation({ invitationId })),
    { success: (_data, variables) => `Invitation for ${variables.email} canceled`, invalidate: [organizationKeys.full(organization.id)] },
  );
  const now = Date.now();
  const pending = organization.invitations.filter((invitation) => invitation.status === "pending" && new Date(invitation.expiresAt).getTime() > now);
  const teamName = (teamId: string | null | undefined) => organization.teams?.find((team) => team.id === teamId)?.name;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Pending invitations</CardTitle>
        <CardDescription>Invitations not answered yet.</CardDescription>
      </CardHeader>
      <CardContent>
        {pending.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="no-pending-invitations">
            No pending invitations.
          </p>
        ) : (
          <Table data-testid="pending-invitations">
            <TableHeader>
              <TableRow>
                <TableHead>Email</TableHead>
                <TableHead>Role</TableHead>
                <TableHead className="hidden sm:table-cell">Expires</TableHead>
                {canCancel ? (
                  <TableHead className="text-right">
                    <span className="sr-only">Actions</span>
                  </TableHead>
                ) : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {pending.map((invitation) => (
                <TableRow key={invitation.id} data-testid="pending-invitation-row">
                  <TableCell className="font-medium">{invitation.email}</TableCell>
                  <TableCell>
                    <Badge variant="secondary">{invitation.role}</Badge>
                    {teamName(invitation.teamId) ? <span className="ml-2 text-xs text-muted-foreground">team {teamName(invitation.teamId)}</span> : null}
                  </TableCell>
                  <TableCell className="hidden text-muted-foreground sm:table-cell">{new Date(invitation.expiresAt).toLocaleDateString()}</TableCell>
                  {canCancel ? (
                    <TableCell className="text-right">
                      <Button
                        variant="ghost"
                        size="sm"
                        disabled={cancel.isPending}
                        onClick={() => cancel.mutate({ invitationId: invitation.id, email: invitation.email })}
                        data-testid="cancel-invitation"
                      >
                        <XIcon /> Cancel
                      </Button>
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
