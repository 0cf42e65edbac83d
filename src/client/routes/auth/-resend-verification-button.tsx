import { useState } from "react";
import { toast } from "sonner";
import { Loader2Icon, MailIcon } from "lucide-react";
import { authClient } from "@/client/lib/auth-client";
import { Button } from "@/client/components/ui/button";

/** Sends the verification mail again; its link lands on the signup success screen. */
export function ResendVerificationButton({ email, variant = "outline" }: { email: string; variant?: "outline" | "default" }) {
  const [sending, setSending] = useState(false);
  const resend = async () => {
    setSending(true);
    const { error } = await authClient.sendVerificationEmail({ email, callbackURL: "/auth/signup/success" });
    setSending(false);
    if (error) toast.error(error.message || error.statusText || "Could not send the verification email");
    else toast.success(`We sent a new verification link to ${email}.`);
  };
  return (
    <Button variant={variant} size="sm" disabled={sending} onClick={() => void resend()} data-testid="resend-verification">
      {sending ? <Loader2Icon className="animate-spin" /> : <MailIcon />}
      Resend verification email
    </Button>
  );
}
