import { useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { Loader2Icon } from "lucide-react";
import { Email } from "@/shared/auth-forms";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { refreshSession, useRequiredSession } from "@/client/lib/session";
import { useZodForm } from "@/client/lib/use-zod-form";
import { FormField, invalidProps } from "@/client/components/form-field";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Input } from "@/client/components/ui/input";

const ChangeEmailForm = z.object({ newEmail: Email });

export function ChangeEmailCard() {
  const { user } = useRequiredSession();
  const queryClient = useQueryClient();
  const form = useZodForm(ChangeEmailForm, { newEmail: "" });
  const change = useToastMutation(
    async ({ newEmail }: { newEmail: string }) => {
      // Read before the session is refreshed: the answer depends on the address being replaced.
      const { email, emailVerified } = user;
      await unwrap(authClient.changeEmail({ newEmail, callbackURL: "/settings/account" }));
      form.reset({ newEmail: "" });
      // An unverified address changes at once (spec §4).
      if (!emailVerified) await refreshSession(queryClient);
      return { email, emailVerified };
    },
    {
      success: ({ email, emailVerified }, { newEmail }) =>
        emailVerified
          ? // Spec §4: the current address confirms first; the new one then gets its own verification link.
            `We sent a confirmation link to ${email}. Once you open it, a second link goes to ${newEmail.toLowerCase()}: your email changes when you open that one.`
          : `Your email is now ${newEmail.toLowerCase()}. Check it for a verification link.`,
    },
  );
  const saving = change.isPending;

  const onSubmit = form.handleSubmit((values) => change.mutate(values));

  return (
    <Card>
      <CardHeader>
        <CardTitle>Email address</CardTitle>
        <CardDescription className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-foreground">{user.email}</span>
          {user.emailVerified ? <Badge variant="success">Verified</Badge> : <Badge variant="outline">Not verified</Badge>}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" noValidate onSubmit={onSubmit}>
          <FormField
            id="new-email"
            label="New email address"
            error={form.errors.newEmail}
            hint={
              user.emailVerified
                ? "Your current address gets a confirmation link first; then a second link goes to the new address, and the change applies once you open it."
                : undefined
            }
          >
            <Input
              id="new-email"
              data-testid="new-email"
              type="email"
              autoComplete="email"
              value={form.values.newEmail}
              onChange={(event) => form.setValue("newEmail", event.target.value)}
              {...invalidProps("new-email", form.errors.newEmail)}
            />
          </FormField>
          <Button type="submit" className="justify-self-start" disabled={saving} data-testid="change-email-submit">
            {saving ? <Loader2Icon className="animate-spin" /> : null}
            Change email
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
