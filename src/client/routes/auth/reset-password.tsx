import { useState } from "react";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { Loader2Icon } from "lucide-react";
import { ResetPasswordForm } from "@/shared/auth-forms";
import { authClient } from "@/client/lib/auth-client";
import { useZodForm } from "@/client/lib/use-zod-form";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { clearSessionData } from "@/client/lib/session";
import { AuthLayout } from "@/client/components/auth-layout";
import { FormField, invalidProps } from "@/client/components/form-field";
import { FormError } from "@/client/components/form-alert";
import { Button } from "@/client/components/ui/button";
import { Input } from "@/client/components/ui/input";

const ResetPasswordSearch = z.object({
  token: z.string().optional().catch(undefined),
  /** INVALID_TOKEN when the auth service rejected the mailed link; any value means it failed. */
  error: z.string().optional().catch(undefined),
});

export const Route = createFileRoute("/auth/reset-password")({
  validateSearch: (search) => ResetPasswordSearch.parse(search),
  component: ResetPasswordScreen,
});

function ResetPasswordScreen() {
  const { token, error } = Route.useSearch();
  if (error || !token) {
    return (
      <AuthLayout title="Reset your password">
        <FormError message={error ? "This password reset link is invalid or has expired." : "This page needs the link from your password reset email."}>
          <p>Reset links are valid for one hour and can be used once.</p>
        </FormError>
        <Button asChild className="w-full" data-testid="request-new-reset-link">
          <Link to="/auth/forgot-password">Request a new link</Link>
        </Button>
      </AuthLayout>
    );
  }
  return <ResetPasswordFormCard token={token} />;
}

function ResetPasswordFormCard({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useZodForm(ResetPasswordForm, { password: "", confirmPassword: "" });
  const [apiError, setApiError] = useState<string | null>(null);
  const reset = useToastMutation(
    async (password: string) => {
      const { error } = await authClient.resetPassword({ newPassword: password, token });
      if (error) throw new Error(error.message || error.statusText || "Could not reset the password");
    },
    {
      // A reset signs out every session of the account, this tab's included.
      refresh: () => clearSessionData(queryClient),
      success: "Your password was changed. Sign in with your new password.",
      onSuccess: () => navigate({ to: "/auth/login", replace: true }),
      onError: setApiError,
    },
  );
  const submitting = reset.isPending;

  const onSubmit = form.handleSubmit(({ password }) => {
    setApiError(null);
    reset.mutate(password);
  });

  return (
    <AuthLayout title="Choose a new password" description="Use at least 8 characters.">
      <FormError message={apiError}>
        {apiError ? (
          <Link to="/auth/forgot-password" className="underline underline-offset-4">
            Request a new link
          </Link>
        ) : null}
      </FormError>
      <form className="grid gap-4" noValidate onSubmit={onSubmit}>
        <FormField id="reset-password" label="New password" error={form.errors.password}>
          <Input
            id="reset-password"
            data-testid="reset-password"
            type="password"
            autoComplete="new-password"
            value={form.values.password}
            onChange={(event) => form.setValue("password", event.target.value)}
            {...invalidProps("reset-password", form.errors.password)}
          />
        </FormField>
        <FormField id="reset-confirm-password" label="Confirm new password" error={form.errors.confirmPassword}>
          <Input
            id="reset-confirm-password"
            data-testid="reset-confirm-password"
            type="password"
            autoComplete="new-password"
            value={form.values.confirmPassword}
            onChange={(event) => form.setValue("confirmPassword", event.target.value)}
            {...invalidProps("reset-confirm-password", form.errors.confirmPassword)}
          />
        </FormField>
        <Button type="submit" data-testid="reset-submit" disabled={submitting} className="w-full">
          {submitting ? <Loader2Icon className="animate-spin" /> : null}
          Change password
        </Button>
      </form>
    </AuthLayout>
  );
}
