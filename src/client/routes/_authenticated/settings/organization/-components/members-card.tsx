import { UserMinusIcon } from "lucide-react";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { organizationKeys } from "@/client/lib/organization";
import { myPermissionsKey, usePermissions } from "@/client/lib/use-permissions";
import { useRoleGrants } from "@/client/lib/use-role-grants";
import { mayChangeRoleOf } from "@/shared/role-grants";
import { parseRoles, type OrganizationRoleName } from "@/shared/roles";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { UserAvatar } from "@/client/components/user-avatar";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/client/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";
import type { OrganizationCardProps } from "./types";

export const ROLE_LABELS: Record<OrganizationRoleName, string> = { owner: "Owner", admin: "Admin", member: "Member" };

/** "Admin" for a built-in role, the name itself for a custom one. */
const roleLabel = (name: string) => ROLE_LABELS[name as OrganizationRoleName] ?? name;

export function MembersCard({ organization, currentUserId }: OrganizationCardProps) {
  const { can } = usePermissions();
  const canUpdate = can("member:update");
  const canRemove = can("member:delete");
  // Offered: the roles the server would let this user give (shared/role-grants.ts).
  const { allRoles, givable, isOwner: iAmOwner } = useRoleGrants();
  const invalidate = [organizationKeys.full(organization.id), myPermissionsKey];

  const updateRole = useToastMutation(
    ({ memberId, role: newRole }: { memberId: string; role: string; name: string }) =>
      unwrap(authClient.organization.updateMemberRole({ memberId, role: newRole, organizationId: organization.id })),
    { success: (_data, variables) => `${variables.name} is now ${roleLabel(variables.role).toLowerCase()}`, invalidate },
  );
  const removeMember = useToastMutation(
    ({ memberId }: { memberId: string; name: string }) =>
      unwrap(authClient.organization.removeMember({ memberIdOrEmail: memberId, organizationId: organization.id })),
    { success: (_data, variables) => `${variables.name} was removed`, invalidate },
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Members</CardTitle>
        <CardDescription>
          What a member may do is what their role grants. You can give a role only when you hold every permission it grants; nobody changes their own role, and
          only an owner makes, changes or removes an owner.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Table data-testid="members-table">
          <TableHeader>
            <TableRow>
              <TableHead>Member</TableHead>
              <TableHead>Role</TableHead>
              <TableHead className="hidden sm:table-cell">Joined</TableHead>
              {canRemove ? (
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              ) : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {organization.members.map((member) => {
              const isMe = member.userId === currentUserId;
              const mayManage = !parseRoles(member.role).includes("owner") || iAmOwner;
              const mayChange = canUpdate && mayChangeRoleOf(iAmOwner, isMe, member.role) === null;
              // Several comma-separated roles (or a custom role this user cannot read) cannot be shown in a single select; show them as text.
              const singleRole = allRoles.includes(member.role) ? member.role : null;
              // The member's current role stays listed so the select can show it, even when this user could not give it.
              const options = allRoles.filter((option) => option === singleRole || givable.includes(option));
              return (
                <TableRow key={member.id} data-testid="member-row">
                  <TableCell>
                    <div className="flex items-center gap-3">
                      <UserAvatar name={member.user.name} image={member.user.image} />
                      <div className="grid text-sm">
                        <span className="font-medium">
                          {member.user.name} {isMe ? <span className="text-muted-foreground">(you)</span> : null}
                        </span>
                        <span className="text-xs text-muted-foreground">{member.user.email}</span>
                      </div>
                    </div>
                  </TableCell>
                  <TableCell>
                    {mayChange && singleRole && options.length > 1 ? (
                      <Select
                        value={singleRole}
                        disabled={updateRole.isPending}
                        onValueChange={(value) => updateRole.mutate({ memberId: member.id, role: value, name: member.user.name })}
                      >
                        <SelectTrigger size="sm" aria-label={`Role of ${member.user.name}`} data-testid="member-role">
                          <SelectValue />
                        </SelectTrigger>
                        <SelectContent>
                          {options.map((option) => (
                            <SelectItem key={option} value={option} disabled={!givable.includes(option)}>
                              {roleLabel(option)}
                            </SelectItem>
                          ))}
                        </SelectContent>
                      </Select>
                    ) : (
                      <Badge variant="secondary" data-testid="member-role-badge">
                        {parseRoles(member.role).map(roleLabel).join(", ")}
                      </Badge>
                    )}
                  </TableCell>
                  <TableCell className="hidden text-muted-foreground sm:table-cell">{new Date(member.createdAt).toLocaleDateString()}</TableCell>
                  {canRemove ? (
                    <TableCell className="text-right">
                      {isMe || !mayManage ? null : (
                        <ConfirmDialog
                          title={`Remove ${member.user.name}?`}
                          description="They lose access to this organization's projects at once. You can invite them again later."
                          confirmLabel="Remove member"
                          destructive
                          onConfirm={() => removeMember.mutateAsync({ memberId: member.id, name: member.user.name })}
                          trigger={
                            <Button variant="ghost" size="sm" className="text-destructive" data-testid="remove-member">
                              <UserMinusIcon /> Remove
                            </Button>
                          }
                        />
                      )}
                    </TableCell>
                  ) : null}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
