import { useState } from "react";
import { createFileRoute, Link, redirect, useNavigate } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { Loader2Icon } from "lucide-react";
import { LOGIN_REDIRECTS, LoginForm } from "@/shared/auth-forms";
import { authClient } from "@/client/lib/auth-client";
import { useZodForm } from "@/client/lib/use-zod-form";
import { destinationAfterSignIn } from "@/client/lib/after-sign-in";
import { errorMessage } from "@/client/lib/api-error";
import { AuthLayout } from "@/client/components/auth-layout";
import { FormField, invalidProps } from "@/client/components/form-field";
import { FormError } from "@/client/components/form-alert";
import { SocialSignInButtons } from "@/client/components/social-sign-in-buttons";
import { Button } from "@/client/components/ui/button";
import { Input } from "@/client/components/ui/input";
import { ResendVerificationButton } from "./-resend-verification-button";
import { oauthErrorMessage } from "@/client/lib/oauth-error-message";

// Anything but the one allowed redirect is dropped rather than rejected (spec §2, §5).
const LoginSearch = z.object({
  redirect: z.enum(LOGIN_REDIRECTS).optional().catch(undefined),
  /** Set by the auth service when a social sign-in failed. */
  error: z.string().optional().catch(undefined),
});

export const Route = createFileRoute("/auth/login")({
  validateSearch: (search) => LoginSearch.parse(search),
  beforeLoad: ({ context, search }) => {
    if (context.session) throw redirect({ to: search.redirect ?? "/dashboard", replace: true });
  },
  component: LoginScreen,
  errorComponent: LoginErrorView,
});

function LoginScreen() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useZodForm(LoginForm, { email: "", password: "" });
  const [apiError, setApiError] = useState<string | null>(search.error ? oauthErrorMessage(search.error) : null);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setSubmitting(true);
    setApiError(null);
    setUnverifiedEmail(null);
    try {
      // No callbackURL: the auth client would follow it itself, skipping the onboarding check below.
      const { error } = await authClient.signIn.email({ email, password, rememberMe: true });
      if (error) {
        setApiError(error.message || error.statusText || "Could not sign in");
        if (error.code === "EMAIL_NOT_VERIFIED" || error.message === "Email not verified") setUnverifiedEmail(email);
        return;
      }
      await navigate({ href: await destinationAfterSignIn(queryClient, search.redirect), replace: true });
    } catch (caught) {
      setApiError(errorMessage(caught, "Could not sign in"));
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <AuthLayout
      title="Sign in to Faultline"
      description="Track the errors and exceptions of your applications."
      footer={
        <span>
          No account yet?{" "}
          <Link to="/auth/signup" className="font-medium text-foreground underline-offset-4 hover:underline">
            Sign up
          </Link>
        </span>
      }
    >
      <SocialSignInButtons callbackURL={search.redirect ?? "/dashboard"} onError={setApiError} />
      <FormError message={apiError}>{unverifiedEmail ? <ResendVerificationButton email={unverifiedEmail} /> : null}</FormError>
      <form className="grid gap-4" noValidate onSubmit={onSubmit}>
        <FormField id="login-email" label="Email" error={form.errors.email}>
          <Input
            id="login-email"
            data-testid="login-email"
            type="email"
            autoComplete="email"
            value={form.values.email}
            onChange={(event) => form.setValue("email", event.target.value)}
            {...invalidProps("login-email", form.errors.email)}
          />
        </FormField>
        <FormField
          id="login-password"
          label={
            <span className="flex w-full items-center justify-between">
              Password
              <Link to="/auth/forgot-password" className="text-xs font-normal text-muted-foreground underline-offset-4 hover:underline">
                Forgot your password?
              </Link>
            </span>
          }
          error={form.errors.password}
        >
          <Input
            id="login-password"
            data-testid="login-password"
            type="password"
            autoComplete="current-password"
            value={form.values.password}
            onChange={(event) => form.setValue("password", event.target.value)}
            {...invalidProps("login-password", form.errors.password)}
          />
        </FormField>
        <Button type="submit" data-testid="login-submit" disabled={submitting} className="w-full">
          {submitting ? <Loader2Icon className="animate-spin" /> : null}
          Sign in
        </Button>
      </form>
    </AuthLayout>
  );
}

function LoginErrorView({ error }: { error: unknown }) {
  return (
    <AuthLayout title="Sign in to Faultline">
      <FormError message="The sign-in screen could not be loaded.">
        <p>{error instanceof Error ? error.message : "Unknown error"}</p>
        <Button variant="outline" size="sm" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </FormError>
    </AuthLayout>
  );
}
