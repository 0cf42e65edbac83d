import { z } from "zod";
import { Loader2Icon, SendIcon } from "lucide-react";
import { Email } from "@/shared/auth-forms";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { organizationKeys } from "@/client/lib/organization";
import { usePermissions } from "@/client/lib/use-permissions";
import { useRoleGrants } from "@/client/lib/use-role-grants";
import type { OrganizationRoleName } from "@/shared/roles";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { useZodForm } from "@/client/lib/use-zod-form";
import { FormField, invalidProps } from "@/client/components/form-field";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Input } from "@/client/components/ui/input";
import { NativeSelect } from "@/client/components/ui/select";
import { ROLE_LABELS } from "./members-card";
import type { OrganizationCardProps } from "./types";

const InviteForm = z.object({
  email: Email,
  // Chosen among the roles the inviter may give (useRoleGrants); "" until they pick, then the first offered.
  role: z.string(),
  teamId: z.string(),
});

export function InviteMemberCard({ organization }: OrganizationCardProps) {
  const { can } = usePermissions();
  const { givable } = useRoleGrants();
  const form = useZodForm(InviteForm, { email: "", role: "", teamId: "" });
  const invite = useToastMutation(
    ({ email, role: invitedRole, teamId }: z.output<typeof InviteForm>) =>
      unwrap(
        authClient.organization.inviteMember({
          email,
          // better-auth types the built-in names; custom roles (dynamic access control) are accepted as well.
          role: invitedRole as OrganizationRoleName,
          organizationId: organization.id,
          ...(teamId ? { teamId } : {}),
        }),
      ),
    {
      success: (_data, variables) => `Invitation sent to ${variables.email}`,
      invalidate: [organizationKeys.full(organization.id)],
      onSuccess: () => form.reset({ email: "", role: "", teamId: "" }),
    },
  );
  if (!can("invitation:create")) return null;

  // Offered: only the roles the server would let this user give; member first when it is one of them.
  const roles = [...givable].sort((a, b) => Number(b === "member") - Number(a === "member"));
  const chosenRole = roles.includes(form.values.role) ? form.values.role : (roles[0] ?? "");
  const teams = organization.teams ?? [];

  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite a member</CardTitle>
        <CardDescription>They get a mail with a link to join; invitations are valid for 7 days.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-start"
          noValidate
          onSubmit={form.handleSubmit((values) => {
            if (chosenRole) invite.mutate({ ...values, role: chosenRole });
          })}
        >
          <FormField id="invite-email" label="Email" error={form.errors.email}>
            <Input
              id="invite-email"
              data-testid="invite-email"
              type="email"
              placeholder="teammate@example.com"
              value={form.values.email}
              onChange={(event) => form.setValue("email", event.target.value)}
              {...invalidProps("invite-email", form.errors.email)}
            />
          </FormField>
          <FormField id="invite-role" label="Role" error={form.errors.role}>
            <NativeSelect
              id="invite-role"
              data-testid="invite-role"
              value={chosenRole}
              disabled={roles.length === 0}
              onChange={(event) => form.setValue("role", event.target.value)}
            >
              {roles.map((option) => (
                <option key={option} value={option}>
                  {ROLE_LABELS[option as OrganizationRoleName] ?? option}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField id="invite-team" label="Team (optional)">
            <NativeSelect
              id="invite-team"
              data-testid="invite-team"
              value={form.values.teamId}
              onChange={(event) => form.setValue("teamId", event.target.value)}
            >
              <option value="">No team</option>
              {teams.map((team) => (
                <option key={team.id} value={team.id}>
                  {team.name}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <Button type="submit" className="sm:mt-[1.375rem]" disabled={invite.isPending || !chosenRole} data-testid="invite-submit">
            {invite.isPending ? <Loader2Icon className="animate-spin" /> : <SendIcon />}
            Invite
          </Button>
        </form>
        {roles.length === 0 ? (
          <p className="mt-3 text-sm text-muted-foreground" data-testid="invite-no-roles">
            There is no role you may give: you can only give a role whose permissions you hold (and see).
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
