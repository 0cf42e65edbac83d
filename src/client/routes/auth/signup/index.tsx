import { useState } from "react";
import { createFileRoute, Link, redirect, useNavigate } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Loader2Icon } from "lucide-react";
import { SignupForm } from "@/shared/auth-forms";
import { authClient } from "@/client/lib/auth-client";
import { useZodForm } from "@/client/lib/use-zod-form";
import { refreshSession } from "@/client/lib/session";
import { errorMessage } from "@/client/lib/api-error";
import { trpc } from "@/client/lib/trpc";
import { AuthLayout } from "@/client/components/auth-layout";
import { FormField, FieldError, invalidProps } from "@/client/components/form-field";
import { FormError } from "@/client/components/form-alert";
import { SocialSignInButtons } from "@/client/components/social-sign-in-buttons";
import { Button } from "@/client/components/ui/button";
import { Input } from "@/client/components/ui/input";
import { Checkbox } from "@/client/components/ui/checkbox";
import { Label } from "@/client/components/ui/label";
import { NativeSelect } from "@/client/components/ui/select";

export const Route = createFileRoute("/auth/signup/")({
  beforeLoad: ({ context }) => {
    if (context.session) throw redirect({ to: "/dashboard", replace: true });
  },
  // The "Privacy Policy" link is the installation's (PRIVACY_POLICY_URL) or the built-in page.
  loader: ({ context }) => context.trpc.config.get.ensureData(),
  component: SignupScreen,
});

/** Only 'us' is accepted today (spec §5); the others are listed so the rule is visible. */
const DATA_LOCATIONS = [
  { value: "us", label: "United States" },
  { value: "eu", label: "European Union (coming soon)" },
];

function SignupScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const trpcUtils = trpc.useUtils();
  const { privacyPolicyUrl } = Route.useLoaderData();
  const form = useZodForm(SignupForm, { name: "", email: "", password: "", dataLocation: "us", acceptPolicy: false });
  const [apiError, setApiError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = form.handleSubmit(async ({ name, email, password }) => {
    setSubmitting(true);
    setApiError(null);
    try {
      const { error } = await authClient.signUp.email({ name, email, password, callbackURL: "/auth/signup/success" });
      if (error) {
        setApiError(error.message || error.statusText || "Could not create the account");
        return;
      }
      // Installations that require verification hand out no session until the mail link is used.
      const config = await trpcUtils.config.get.ensureData();
      if (config.requireEmailVerification) {
        await navigate({ to: "/auth/signup/verify-email", search: { email } });
      } else {
        await refreshSession(queryClient);
        await navigate({ to: "/onboarding" });
      }
    } catch (caught) {
      setApiError(errorMessage(caught, "Could not create the account"));
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <AuthLayout
      title="Create your account"
      description="Start tracking errors in a few minutes."
      footer={
        <span>
          Already have an account?{" "}
          <Link to="/auth/login" className="font-medium text-foreground underline-offset-4 hover:underline">
            Sign in
          </Link>
        </span>
      }
    >
      <SocialSignInButtons callbackURL="/dashboard" onError={setApiError} />
      <FormError message={apiError} />
      <form className="grid gap-4" noValidate onSubmit={onSubmit}>
        <FormField id="signup-name" label="Full name" error={form.errors.name}>
          <Input
            id="signup-name"
            data-testid="signup-name"
            autoComplete="name"
            value={form.values.name}
            onChange={(event) => form.setValue("name", event.target.value)}
            {...invalidProps("signup-name", form.errors.name)}
          />
        </FormField>
        <FormField id="signup-email" label="Email" error={form.errors.email}>
          <Input
            id="signup-email"
            data-testid="signup-email"
            type="email"
            autoComplete="email"
            value={form.values.email}
            onChange={(event) => form.setValue("email", event.target.value)}
            {...invalidProps("signup-email", form.errors.email)}
          />
        </FormField>
        <FormField id="signup-password" label="Password" error={form.errors.password} hint="At least 8 characters.">
          <Input
            id="signup-password"
            data-testid="signup-password"
            type="password"
            autoComplete="new-password"
            value={form.values.password}
            onChange={(event) => form.setValue("password", event.target.value)}
            {...invalidProps("signup-password", form.errors.password)}
          />
        </FormField>
        <FormField id="signup-data-location" label="Data location" error={form.errors.dataLocation}>
          <NativeSelect
            id="signup-data-location"
            data-testid="signup-data-location"
            value={form.values.dataLocation}
            onChange={(event) => form.setValue("dataLocation", event.target.value)}
            {...invalidProps("signup-data-location", form.errors.dataLocation)}
          >
            {DATA_LOCATIONS.map((location) => (
              <option key={location.value} value={location.value}>
                {location.label}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <div className="grid gap-2">
          <div className="flex items-center gap-2">
            <Checkbox
              id="signup-accept-policy"
              data-testid="signup-accept-policy"
              checked={form.values.acceptPolicy}
              onCheckedChange={(checked) => form.setValue("acceptPolicy", checked === true)}
              {...invalidProps("signup-accept-policy", form.errors.acceptPolicy)}
            />
            <Label htmlFor="signup-accept-policy" className="font-normal">
              I agree to the{" "}
              {privacyPolicyUrl ? (
                <a href={privacyPolicyUrl} target="_blank" rel="noopener noreferrer" className="underline underline-offset-2" data-testid="privacy-policy-link">
                  Privacy Policy
                </a>
              ) : (
                <Link to="/privacy" target="_blank" className="underline underline-offset-2" data-testid="privacy-policy-link">
                  Privacy Policy
                </Link>
              )}
            </Label>
          </div>
          <FieldError id="signup-accept-policy-error" message={form.errors.acceptPolicy} />
        </div>
        <Button type="submit" data-testid="signup-submit" disabled={submitting} className="w-full">
          {submitting ? <Loader2Icon className="animate-spin" /> : null}
          Create account
        </Button>
      </form>
    </AuthLayout>
  );
}
