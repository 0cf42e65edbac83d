import { createFileRoute, Link } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { CheckCircle2Icon } from "lucide-react";
import { useSession } from "@/client/lib/session";
import { organizationsQueryOptions } from "@/client/lib/organization";
import { AuthLayout } from "@/client/components/auth-layout";
import { FormError } from "@/client/components/form-alert";
import { Button } from "@/client/components/ui/button";
import { Skeleton } from "@/client/components/ui/skeleton";

const SuccessSearch = z.object({
  /** Set by the auth service when the verification link was not accepted (§8 redirect codes). */
  error: z.string().optional().catch(undefined),
});

const VERIFY_ERRORS: Record<string, string> = {
  token_expired: "This verification link has expired.",
  invalid_token: "This verification link is invalid.",
  user_not_found: "The account of this verification link no longer exists.",
  unauthorized: "This verification link belongs to another account.",
};

export const Route = createFileRoute("/auth/signup/success")({
  validateSearch: (search) => SuccessSearch.parse(search),
  component: SignupSuccessScreen,
});

function SignupSuccessScreen() {
  const { error } = Route.useSearch();
  if (error) {
    return (
      <AuthLayout title="Email not verified">
        <FormError message={VERIFY_ERRORS[error.toLowerCase()] ?? "This verification link could not be used."}>
          <p>Sign in to get a new verification link.</p>
        </FormError>
        <Button asChild className="w-full">
          <Link to="/auth/login">Go to sign in</Link>
        </Button>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Your email is verified" description="Your Faultline account is ready.">
      <div className="flex justify-center py-2">
        <CheckCircle2Icon className="size-12 text-success" aria-hidden />
      </div>
      <ContinueButton />
    </AuthLayout>
  );
}

/** Verification signs the user in; the next stop depends on whether they have an organization. */
function ContinueButton() {
  const session = useSession();
  const organizations = useQuery({ ...organizationsQueryOptions(), enabled: Boolean(session.data) });

  if (session.isPending || (session.data && organizations.isPending)) return <Skeleton className="h-9 w-full" />;
  if (!session.data) {
    return (
      <Button asChild className="w-full" data-testid="signup-continue">
        <Link to="/auth/login">Sign in</Link>
      </Button>
    );
  }
  const hasOrganization = (organizations.data?.length ?? 0) > 0;
  return (
    <Button asChild className="w-full" data-testid="signup-continue">
      {hasOrganization ? <Link to="/dashboard">Continue to the dashboard</Link> : <Link to="/onboarding">Continue</Link>}
    </Button>
  );
}
