import { useState } from "react";
import { Loader2Icon, PlusIcon, UsersIcon } from "lucide-react";
import { TeamName } from "@/shared/organization.inputs";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { organizationKeys } from "@/client/lib/organization";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Input } from "@/client/components/ui/input";
import { TeamRow } from "./team-row";
import type { OrganizationCardProps } from "./types";

export function TeamsCard(props: OrganizationCardProps) {
  const { organization } = props;
  const { can } = usePermissions();
  const canCreate = can("team:create");
  const [name, setName] = useState("");
  const createTeam = useToastMutation((teamName: string) => unwrap(authClient.organization.createTeam({ name: teamName, organizationId: organization.id })), {
    success: (_data, teamName) => `Team ${teamName} created`,
    invalidate: [organizationKeys.full(organization.id)],
    onSuccess: () => setName(""),
  });
  const teams = organization.teams ?? [];
  const checked = TeamName.safeParse(name);
  const problem = name && !checked.success ? checked.error.issues[0].message : null;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Teams</CardTitle>
        <CardDescription>Group members of the organization; invitations can add people straight to a team.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {canCreate ? (
          <form
            className="flex gap-2 sm:max-w-md"
            onSubmit={(event) => {
              event.preventDefault();
              if (checked.success) createTeam.mutate(checked.data);
            }}
          >
            <Input
              aria-label="New team name"
              placeholder="New team name"
              data-testid="team-name"
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
            <Button type="submit" variant="outline" disabled={!checked.success || createTeam.isPending} data-testid="team-create">
              {createTeam.isPending ? <Loader2Icon className="animate-spin" /> : <PlusIcon />}
              Create team
            </Button>
          </form>
        ) : null}
        {canCreate && problem ? <p className="text-sm text-destructive">{problem}</p> : null}
        {teams.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="no-teams">
            <UsersIcon className="size-4" aria-hidden /> No teams yet.
          </p>
        ) : (
          <ul className="divide-y rounded-lg border" data-testid="team-list">
            {teams.map((team) => (
              <TeamRow key={team.id} team={team} {...props} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
