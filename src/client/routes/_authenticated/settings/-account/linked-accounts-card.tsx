import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { KeyRoundIcon, LinkIcon, Loader2Icon, UnlinkIcon } from "lucide-react";
import { authClient } from "@/client/lib/auth-client";
import { unwrap, errorMessage } from "@/client/lib/api-error";
import { accountKeys, CREDENTIAL_PROVIDER_ID, linkedAccountsQueryOptions } from "@/client/lib/accounts";
import { useAppConfig } from "@/client/lib/config";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { FormError } from "@/client/components/form-alert";
import { ProviderIcon } from "@/client/components/provider-icon";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";

export function LinkedAccountsCard() {
  const accounts = useQuery(linkedAccountsQueryOptions());
  const config = useAppConfig();
  const providers = config.data?.socialProviders ?? [];
  const providerName = (providerId: string) =>
    providerId === CREDENTIAL_PROVIDER_ID ? "Email and password" : (providers.find((provider) => provider.id === providerId)?.name ?? providerId);
  const [unlinkError, setUnlinkError] = useState<string | null>(null);

  const unlink = useToastMutation((account: { providerId: string; accountId: string }) => unwrap(authClient.unlinkAccount(account)), {
    success: (_data, account) => `${providerName(account.providerId)} unlinked`,
    invalidate: [accountKeys.linked],
    onSuccess: () => setUnlinkError(null),
  });

  const linked = accounts.data ?? [];
  // The server refuses to unlink the last method ("You can't unlink your last account"); say so before.
  const isLastMethod = linked.length <= 1;
  const linkable = providers.filter((provider) => !linked.some((account) => account.providerId === provider.id));

  return (
    <Card>
      <CardHeader>
        <CardTitle>Sign-in methods</CardTitle>
        <CardDescription>Link providers to sign in with them too. Your last sign-in method cannot be unlinked.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FormError message={unlinkError} />
        {accounts.isPending ? (
          <Skeleton className="h-16" />
        ) : accounts.error ? (
          <QueryErrorAlert error={accounts.error} onRetry={() => void accounts.refetch()} />
        ) : (
          <ul className="divide-y rounded-lg border" data-testid="linked-accounts">
            {linked.map((account) => (
              <li key={account.id} className="flex items-center gap-3 px-4 py-3">
                {account.providerId === CREDENTIAL_PROVIDER_ID ? (
                  <KeyRoundIcon className="size-4" aria-hidden />
                ) : (
                  <ProviderIcon providerId={account.providerId} />
                )}
                <div className="grid flex-1 text-sm">
                  <span className="font-medium">{providerName(account.providerId)}</span>
                  <span className="text-xs text-muted-foreground">Linked {new Date(account.createdAt).toLocaleDateString()}</span>
                </div>
                {isLastMethod ? (
                  <span className="text-xs text-muted-foreground" data-testid="last-method-note">
                    Your only sign-in method
                  </span>
                ) : null}
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={unlink.isPending || isLastMethod}
                  title={isLastMethod ? "You can't unlink your last account" : undefined}
                  data-testid="unlink-account"
                  onClick={() =>
                    unlink.mutate(
                      { providerId: account.providerId, accountId: account.accountId },
                      // The server refuses to unlink the last method; keep its words on screen.
                      { onError: (error) => setUnlinkError(errorMessage(error)) },
                    )
                  }
                >
                  <UnlinkIcon /> Unlink
                </Button>
              </li>
            ))}
          </ul>
        )}
        {linkable.length > 0 ? (
          <div className="flex flex-wrap gap-2">
            {linkable.map((provider) => (
              <LinkProviderButton key={provider.id} providerId={provider.id} name={provider.name} />
            ))}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

/**
 * Both provider flows link through /link-social: better-auth 1.7 serves generic OIDC providers as
 * social providers, so there is no separate oauth2 link call.
 */
function LinkProviderButton({ providerId, name }: { providerId: string; name: string }) {
  const link = useToastMutation(async () => {
    const { error } = await authClient.linkSocial({ provider: providerId, callbackURL: "/settings/account", errorCallbackURL: "/settings/account" });
    if (error) throw new Error(error.message || error.statusText || `Could not link ${name}`);
  });
  // On success the browser is already on its way to the provider.
  const pending = link.isPending || link.isSuccess;
  return (
    <Button variant="outline" size="sm" disabled={pending} onClick={() => link.mutate(undefined)} data-testid={`link-${providerId}`}>
      {pending ? <Loader2Icon className="animate-spin" /> : <LinkIcon />}
      Link {name}
    </Button>
  );
}
