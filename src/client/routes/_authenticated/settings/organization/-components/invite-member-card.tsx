import { z } from "zod";
import { Loader2Icon, SendIcon } from "lucide-react";
import { Email } from "@/shared/auth-forms";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { organizationKeys, roleCan } from "@/client/lib/organization";
import { ORGANIZATION_ROLES, type OrganizationRoleName } from "@/shared/roles";
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
  role: z.enum(ORGANIZATION_ROLES),
  teamId: z.string(),
});

export function InviteMemberCard({ organization, role }: OrganizationCardProps) {
  const form = useZodForm(InviteForm, { email: "", role: "member", teamId: "" });
  const invite = useToastMutation(
    ({ email, role: invitedRole, teamId }: z.output<typeof InviteForm>) =>
      unwrap(authClient.organization.inviteMember({ email, role: invitedRole, organizationId: organization.id, ...(teamId ? { teamId } : {}) })),
    {
      success: (_data, variables) => `Invitation sent to ${variables.email}`,
      invalidate: [organizationKeys.full(organization.id)],
      onSuccess: () => form.reset({ email: "", role: "member", teamId: "" }),
    },
  );
  if (!roleCan(role, { invitation: ["create"] })) return null;

  // Only owners may hand out the owner role; the server enforces the same.
  const roles = ORGANIZATION_ROLES.filter((option) => option !== "owner" || roleCan(role, { organization: ["delete"] }));
  const teams = organization.teams ?? [];

  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite a member</CardTitle>
        <CardDescription>They get a mail with a link to join; invitations are valid for 7 days.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-start" noValidate onSubmit={form.handleSubmit((values) => invite.mutate(values))}>
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
              value={form.values.role}
              onChange={(event) => form.setValue("role", event.target.value as OrganizationRoleName)}
            >
              {roles.map((option) => (
                <option key={option} value={option}>
                  {ROLE_LABELS[option]}
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
          <Button type="submit" className="sm:mt-[1.375rem]" disabled={invite.isPending} data-testid="invite-submit">
            {invite.isPending ? <Loader2Icon className="animate-spin" /> : <SendIcon />}
            Invite
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
