import { useState } from "react";
import { Loader2Icon } from "lucide-react";
import { authClient } from "@/client/lib/auth-client";
import { useAppConfig } from "@/client/lib/config";
import { Button } from "./ui/button";
import { Separator } from "./ui/separator";
import { ProviderIcon } from "./provider-icon";

interface Props {
  /** Where the browser lands after the provider sent it back. */
  callbackURL: string;
  onError: (message: string) => void;
}

/**
 * One button per provider configured on this installation (Google first). Both provider flows go
 * through /sign-in/social: better-auth 1.7 registers generic OIDC providers as social providers.
 */
export function SocialSignInButtons({ callbackURL, onError }: Props) {
  const config = useAppConfig();
  const [pending, setPending] = useState<string | null>(null);
  const providers = config.data?.socialProviders ?? [];
  if (providers.length === 0) return null;

  const signIn = async (providerId: string) => {
    setPending(providerId);
    const { error } = await authClient.signIn.social({
      provider: providerId,
      callbackURL,
      // A first sign-in creates the account; such a user has no organization yet.
      newUserCallbackURL: "/onboarding",
      errorCallbackURL: "/auth/login",
    });
    // On success the browser is already leaving for the provider.
    if (error) {
      setPending(null);
      onError(error.message || error.statusText || "Could not start the sign-in");
    }
  };

  return (
    <div className="grid gap-3">
      {providers.map((provider) => (
        <Button
          key={provider.id}
          variant="outline"
          className="w-full"
          disabled={pending !== null}
          data-testid={`social-${provider.id}`}
          onClick={() => void signIn(provider.id)}
        >
          {pending === provider.id ? <Loader2Icon className="animate-spin" /> : <ProviderIcon providerId={provider.id} />}
          Continue with {provider.name}
        </Button>
      ))}
      <div className="flex items-center gap-3 text-xs text-muted-foreground uppercase">
        <Separator className="flex-1" /> or <Separator className="flex-1" />
      </div>
    </div>
  );
}
