import { useState } from "react";
import { createFileRoute, Link } from "@tanstack/react-router";
import { z } from "zod";
import { InboxIcon } from "lucide-react";
import { Email } from "@/shared/auth-forms";
import { useAppConfig } from "@/client/lib/config";
import { AuthLayout } from "@/client/components/auth-layout";
import { FormField } from "@/client/components/form-field";
import { Button } from "@/client/components/ui/button";
import { Input } from "@/client/components/ui/input";
import { ResendVerificationButton } from "../-resend-verification-button";

const VerifyEmailSearch = z.object({
  /** The address the mail went to; set by the signup screen. */
  email: z.string().optional().catch(undefined),
});

export const Route = createFileRoute("/auth/signup/verify-email")({
  validateSearch: (search) => VerifyEmailSearch.parse(search),
  component: VerifyEmailScreen,
});

function VerifyEmailScreen() {
  const search = Route.useSearch();
  const config = useAppConfig();
  const [email, setEmail] = useState(search.email ?? "");
  const emailIsValid = Email.safeParse(email).success;

  return (
    <AuthLayout
      title="Verify your email"
      description="One more step before you can sign in."
      footer={
        <Link to="/auth/login" className="font-medium text-foreground underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      }
    >
      <div className="flex items-start gap-3 rounded-lg border bg-muted/50 p-4 text-sm">
        <InboxIcon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
        <p data-testid="verify-email-message">
          We sent a verification link to {search.email ? <strong className="break-all">{search.email}</strong> : "your email address"}. Open it to activate your
          account. The link is valid for one hour.
        </p>
      </div>
      {search.email ? null : (
        <FormField id="verify-email-address" label="Email">
          <Input id="verify-email-address" type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        </FormField>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-muted-foreground">No mail after a few minutes?</span>
        {emailIsValid ? <ResendVerificationButton email={email} /> : null}
      </div>
      {config.data?.devOutbox ? (
        <Button asChild variant="secondary" className="w-full">
          {/* A server page, not a client route: a full page load is intended. */}
          <a href="/dev/outbox" data-testid="dev-outbox-link">
            Open the local outbox
          </a>
        </Button>
      ) : null}
    </AuthLayout>
  );
}
