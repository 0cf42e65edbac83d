import { useEffect } from "react";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { z } from "zod";
import { toast } from "@/client/lib/toast";
import { oauthErrorMessage } from "@/client/lib/oauth-error-message";
import { PageHeader } from "@/client/components/page-header";
import { ChangePasswordCard } from "./-account/change-password-card";
import { ChangeEmailCard } from "./-account/change-email-card";
import { LinkedAccountsCard } from "./-account/linked-accounts-card";
import { SessionsCard } from "./-account/sessions-card";
import { DeleteAccountCard } from "./-account/delete-account-card";

const AccountSearch = z.object({
  /** Set by the auth service when linking a provider failed. */
  error: z.string().optional().catch(undefined),
});

export const Route = createFileRoute("/_authenticated/settings/account")({
  validateSearch: (search) => AccountSearch.parse(search),
  component: AccountSettingsScreen,
});

function AccountSettingsScreen() {
  const { error } = Route.useSearch();
  const navigate = useNavigate();

  // Report a failed provider link once, then drop the code from the address bar.
  useEffect(() => {
    if (!error) return;
    toast.error(oauthErrorMessage(error));
    void navigate({ to: "/settings/account", search: {}, replace: true });
  }, [error, navigate]);

  return (
    <div className="grid max-w-3xl gap-6 grid-cols-[minmax(0,1fr)]">
      <PageHeader title="Account" description="Sign-in methods, sessions and the account itself." />
      <ChangePasswordCard />
      <ChangeEmailCard />
      <LinkedAccountsCard />
      <SessionsCard />
      <DeleteAccountCard />
    </div>
  );
}
