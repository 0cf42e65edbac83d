import { Link } from "@tanstack/react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Loader2Icon } from "lucide-react";
import { ChangePasswordForm } from "@/shared/auth-forms";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { accountKeys, CREDENTIAL_PROVIDER_ID, linkedAccountsQueryOptions } from "@/client/lib/accounts";
import { refreshSession } from "@/client/lib/session";
import { useZodForm } from "@/client/lib/use-zod-form";
import { FormField, invalidProps } from "@/client/components/form-field";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Checkbox } from "@/client/components/ui/checkbox";
import { Input } from "@/client/components/ui/input";
import { Label } from "@/client/components/ui/label";
import { Skeleton } from "@/client/components/ui/skeleton";

const EMPTY = { currentPassword: "", password: "", confirmPassword: "", revokeOtherSessions: true };

export function ChangePasswordCard() {
  const accounts = useQuery(linkedAccountsQueryOptions());
  const hasPassword = accounts.data?.some((account) => account.providerId === CREDENTIAL_PROVIDER_ID);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>Use at least 8 characters. Signing out your other devices is recommended.</CardDescription>
      </CardHeader>
      <CardContent>
        {accounts.isPending ? (
          <Skeleton className="h-40" />
        ) : hasPassword === false ? (
          <p className="text-sm text-muted-foreground">
            You sign in through a linked provider and have no password yet. To add one, request a link on the{" "}
            <Link to="/auth/forgot-password" className="underline underline-offset-4">
              forgot password
            </Link>{" "}
            page.
          </p>
        ) : (
          <ChangePasswordFields />
        )}
      </CardContent>
    </Card>
  );
}

function ChangePasswordFields() {
  const queryClient = useQueryClient();
  const form = useZodForm(ChangePasswordForm, EMPTY);
  const change = useToastMutation(
    ({ currentPassword, password, revokeOtherSessions }: ChangePasswordForm) =>
      unwrap(authClient.changePassword({ currentPassword, newPassword: password, revokeOtherSessions })),
    {
      refresh: async () => {
        // Revoking other sessions issues this tab a new session token.
        await refreshSession(queryClient);
        await queryClient.invalidateQueries({ queryKey: accountKeys.sessions });
        form.reset(EMPTY);
      },
      success: (_data, { revokeOtherSessions }) => (revokeOtherSessions ? "Password changed. Your other sessions were signed out." : "Password changed"),
    },
  );
  const saving = change.isPending;

  const onSubmit = form.handleSubmit((values) => change.mutate(values));

  return (
    <form className="grid gap-4" noValidate onSubmit={onSubmit}>
      <FormField id="current-password" label="Current password" error={form.errors.currentPassword}>
        <Input
          id="current-password"
          data-testid="current-password"
          type="password"
          autoComplete="current-password"
          value={form.values.currentPassword}
          onChange={(event) => form.setValue("currentPassword", event.target.value)}
          {...invalidProps("current-password", form.errors.currentPassword)}
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="new-password" label="New password" error={form.errors.password}>
          <Input
            id="new-password"
            data-testid="new-password"
            type="password"
            autoComplete="new-password"
            value={form.values.password}
            onChange={(event) => form.setValue("password", event.target.value)}
            {...invalidProps("new-password", form.errors.password)}
          />
        </FormField>
        <FormField id="confirm-new-password" label="Confirm new password" error={form.errors.confirmPassword}>
          <Input
            id="confirm-new-password"
            data-testid="confirm-new-password"
            type="password"
            autoComplete="new-password"
            value={form.values.confirmPassword}
            onChange={(event) => form.setValue("confirmPassword", event.target.value)}
            {...invalidProps("confirm-new-password", form.errors.confirmPassword)}
          />
        </FormField>
      </div>
      <div className="flex items-center gap-2">
        <Checkbox
          id="revoke-other-sessions"
          data-testid="revoke-other-sessions"
          checked={form.values.revokeOtherSessions}
          onCheckedChange={(checked) => form.setValue("revokeOtherSessions", checked === true)}
        />
        <Label htmlFor="revoke-other-sessions" className="font-normal">
          Sign out of all other devices
        </Label>
      </div>
      <Button type="submit" className="justify-self-start" disabled={saving} data-testid="change-password-submit">
        {saving ? <Loader2Icon className="animate-spin" /> : null}
        Change password
      </Button>
    </form>
  );
}
