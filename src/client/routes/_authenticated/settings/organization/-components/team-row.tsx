import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ChevronDownIcon, ChevronRightIcon, PencilIcon, Trash2Icon, UserMinusIcon, UserPlusIcon } from "lucide-react";
import { TeamName } from "@/shared/organization.inputs";
import { authClient, type OrganizationTeam } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { organizationKeys } from "@/client/lib/organization";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { Button } from "@/client/components/ui/button";
import { Input } from "@/client/components/ui/input";
import { NativeSelect } from "@/client/components/ui/select";
import { Skeleton } from "@/client/components/ui/skeleton";
import type { OrganizationCardProps } from "./types";

const teamMembersKey = (teamId: string) => ["auth", "team-members", teamId] as const;

export function TeamRow({ team, organization }: OrganizationCardProps & { team: OrganizationTeam }) {
  const { can } = usePermissions();
  const canUpdate = can("team:update");
  const canDelete = can("team:delete");
  const [expanded, setExpanded] = useState(false);
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(team.name);
  const invalidate = [organizationKeys.full(organization.id), teamMembersKey(team.id)];
  const checked = TeamName.safeParse(name);

  const rename = useToastMutation((newName: string) => unwrap(authClient.organization.updateTeam({ teamId: team.id, data: { name: newName } })), {
    success: "Team renamed",
    invalidate,
    onSuccess: () => setEditing(false),
  });
  const remove = useToastMutation(() => unwrap(authClient.organization.removeTeam({ teamId: team.id, organizationId: organization.id })), {
    success: `Team ${team.name} deleted`,
    invalidate: [organizationKeys.full(organization.id)],
  });

  return (
    <li className="grid gap-3 px-4 py-3" data-testid="team-row">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="ghost"
          size="icon"
          className="size-7"
          aria-expanded={expanded}
          aria-label={`Members of ${team.name}`}
          onClick={() => setExpanded((open) => !open)}
        >
          {expanded ? <ChevronDownIcon /> : <ChevronRightIcon />}
        </Button>
        {editing ? (
          <form
            className="flex flex-1 gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              if (checked.success) rename.mutate(checked.data);
            }}
          >
            <Input
              aria-label="Team name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              className="h-8"
              autoFocus
              aria-invalid={!checked.success}
              title={checked.success ? undefined : checked.error.issues[0].message}
            />
            <Button type="submit" size="sm" disabled={!checked.success || rename.isPending}>
              Save
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </form>
        ) : (
          <span className="flex-1 font-medium">{team.name}</span>
        )}
        {canUpdate && !editing ? (
          <Button variant="ghost" size="sm" onClick={() => setEditing(true)} data-testid="team-rename">
            <PencilIcon /> Rename
          </Button>
        ) : null}
        {canDelete ? (
          <ConfirmDialog
            title={`Delete team ${team.name}?`}
            description="Its members stay in the organization; only the team goes away."
            confirmLabel="Delete team"
            destructive
            onConfirm={() => remove.mutateAsync()}
            trigger={
              <Button variant="ghost" size="sm" className="text-destructive" data-testid="team-delete">
                <Trash2Icon /> Delete
              </Button>
            }
          />
        ) : null}
      </div>
      {expanded ? <TeamMembers team={team} organization={organization} canManage={canUpdate} /> : null}
    </li>
  );
}

function TeamMembers({ team, organization, canManage }: { team: OrganizationTeam; organization: OrganizationCardProps["organization"]; canManage: boolean }) {
  const members = useQuery({
    queryKey: teamMembersKey(team.id),
    queryFn: async () => (await unwrap(authClient.organization.listTeamMembers({ query: { teamId: team.id } }))) ?? [],
    // The auth service shows a team's member list only to members of that team: no point retrying.
    retry: false,
  });
  const [userToAdd, setUserToAdd] = useState("");
  const invalidate = [teamMembersKey(team.id)];
  const add = useToastMutation(
    (userId: string) => unwrap(authClient.organization.addTeamMember({ teamId: team.id, userId, organizationId: organization.id })),
    {
      success: "Added to the team",
      invalidate,
      onSuccess: () => setUserToAdd(""),
    },
  );
  const removeMember = useToastMutation(
    (userId: string) => unwrap(authClient.organization.removeTeamMember({ teamId: team.id, userId, organizationId: organization.id })),
    { success: "Removed from the team", invalidate },
  );

  const userOf = (userId: string) => organization.members.find((member) => member.userId === userId)?.user;
  const inTeam = new Set((members.data ?? []).map((member) => member.userId));
  const candidates = organization.members.filter((member) => !inTeam.has(member.userId));

  return (
    <div className="ml-9 grid gap-3">
      {members.isPending ? (
        <Skeleton className="h-8" />
      ) : members.error ? (
        <p className="text-sm text-muted-foreground">The member list of a team is visible to its members only. You can still add people below.</p>
      ) : members.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No members in this team yet.</p>
      ) : (
        <ul className="grid gap-1" data-testid="team-members">
          {members.data.map((member) => {
            const user = userOf(member.userId);
            return (
              <li key={member.id} className="flex items-center gap-2 text-sm">
                <span className="flex-1">
                  {user?.name ?? "Former member"} <span className="text-muted-foreground">{user?.email}</span>
                </span>
                {canManage ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={removeMember.isPending}
                    onClick={() => removeMember.mutate(member.userId)}
                    data-testid="team-member-remove"
                  >
                    <UserMinusIcon /> Remove
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {canManage && candidates.length > 0 ? (
        <form
          className="flex gap-2 sm:max-w-md"
          onSubmit={(event) => {
            event.preventDefault();
            if (userToAdd) add.mutate(userToAdd);
          }}
        >
          <NativeSelect
            aria-label="Member to add"
            value={userToAdd}
            onChange={(event) => setUserToAdd(event.target.value)}
            className="h-8"
            data-testid="team-member-select"
          >
            <option value="">Choose a member…</option>
            {candidates.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.user.name} ({member.user.email})
              </option>
            ))}
          </NativeSelect>
          <Button type="submit" size="sm" variant="outline" disabled={!userToAdd || add.isPending} data-testid="team-member-add">
            <UserPlusIcon /> Add
          </Button>
        </form>
      ) : null}
    </div>
  );
}
