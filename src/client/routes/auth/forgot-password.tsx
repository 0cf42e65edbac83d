import { useState } from "react";
import { createFileRoute, Link } from "@tanstack/react-router";
import { Loader2Icon } from "lucide-react";
import { ForgotPasswordForm } from "@/shared/auth-forms";
import { authClient } from "@/client/lib/auth-client";
import { useZodForm } from "@/client/lib/use-zod-form";
import { AuthLayout } from "@/client/components/auth-layout";
import { FormField, invalidProps } from "@/client/components/form-field";
import { FormError, FormSuccess } from "@/client/components/form-alert";
import { Button } from "@/client/components/ui/button";
import { Input } from "@/client/components/ui/input";

export const Route = createFileRoute("/auth/forgot-password")({
  component: ForgotPasswordScreen,
});

function ForgotPasswordScreen() {
  const form = useZodForm(ForgotPasswordForm, { email: "" });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [apiError, setApiError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setSubmitting(true);
    setApiError(null);
    try {
      const { error } = await authClient.requestPasswordReset({ email, redirectTo: "/auth/reset-password" });
      // Only a throttled request is reported; anything else gets the same confirmation, so the
      // screen never tells whether an account exists for the address.
      if (error?.status === 429) setApiError("Too many requests. Please wait a minute and try again.");
      else setSentTo(email);
    } catch {
      setApiError("Could not reach the server. Check your connection and try again.");
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter your email and we will send you a link to choose a new password."
      footer={
        <Link to="/auth/login" className="font-medium text-foreground underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      }
    >
      {sentTo ? (
        <FormSuccess title="Check your email">
          <p data-testid="forgot-password-confirmation">
            If an account exists for {sentTo}, we sent a link to reset its password. The link is valid for one hour.
          </p>
        </FormSuccess>
      ) : (
        <>
          <FormError message={apiError} />
          <form className="grid gap-4" noValidate onSubmit={onSubmit}>
            <FormField id="forgot-email" label="Email" error={form.errors.email}>
              <Input
                id="forgot-email"
                data-testid="forgot-email"
                type="email"
                autoComplete="email"
                value={form.values.email}
                onChange={(event) => form.setValue("email", event.target.value)}
                {...invalidProps("forgot-email", form.errors.email)}
              />
            </FormField>
            <Button type="submit" data-testid="forgot-submit" disabled={submitting} className="w-full">
              {submitting ? <Loader2Icon className="animate-spin" /> : null}
              Send reset link
            </Button>
          </form>
        </>
      )}
    </AuthLayout>
  );
}
