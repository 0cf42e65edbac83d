import { Loader2Icon, MailIcon } from "lucide-react";
import { authClient } from "@/client/lib/auth-client";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { Button } from "@/client/components/ui/button";

/** Sends the verification mail again; its link lands on the signup success screen. */
export function ResendVerificationButton({ email, variant = "outline" }: { email: string; variant?: "outline" | "default" }) {
  const resend = useToastMutation(
    async (address: string) => {
      const { error } = await authClient.sendVerificationEmail({ email: address, callbackURL: "/auth/signup/success" });
      if (error) throw new Error(error.message || error.statusText || "Could not send the verification email");
    },
    { success: (_data, address) => `We sent a new verification link to ${address}.` },
  );
  const sending = resend.isPending;
  return (
    <Button variant={variant} size="sm" disabled={sending} onClick={() => resend.mutate(email)} data-testid="resend-verification">
      {sending ? <Loader2Icon className="animate-spin" /> : <MailIcon />}
      Resend verification email
    </Button>
  );
}
