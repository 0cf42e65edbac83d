import { useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Loader2Icon, MailIcon, Trash2Icon } from "lucide-react";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { CREDENTIAL_PROVIDER_ID, linkedAccountsQueryOptions } from "@/client/lib/accounts";
import { clearSessionData, useRequiredSession } from "@/client/lib/session";
import { FormError } from "@/client/components/form-alert";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/client/components/ui/dialog";
import { Input } from "@/client/components/ui/input";
import { Label } from "@/client/components/ui/label";
import { Separator } from "@/client/components/ui/separator";

type Pending = "password" | "email" | null;

export function DeleteAccountCard() {
  const { user } = useRequiredSession();
  const accounts = useQuery(linkedAccountsQueryOptions());
  const hasPassword = accounts.data?.some((account) => account.providerId === CREDENTIAL_PROVIDER_ID) ?? false;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);

  /**
   * The auth service either deletes at once or (when confirmation mails are configured) mails a
   * link first; its answer says which happened.
   */
  const deletion = useToastMutation(
    async (kind: Exclude<Pending, null>) => {
      const result = await unwrap(authClient.deleteUser(kind === "password" ? { password, callbackURL: "/auth/login" } : { callbackURL: "/auth/login" }));
      return { deleted: result?.message === "User deleted", email: user.email };
    },
    {
      refresh: ({ deleted }) => {
        setOpen(false);
        setPassword("");
        if (deleted) clearSessionData(queryClient);
      },
      success: ({ deleted, email }) =>
        deleted ? "Your account was deleted" : `We sent a confirmation link to ${email}. Your account is deleted once you open it.`,
      onSuccess: ({ deleted }) => (deleted ? navigate({ to: "/auth/login", replace: true }) : undefined),
      onError: setError,
    },
  );
  const pending: Pending = deletion.isPending ? deletion.variables : null;
  const requestDeletion = (kind: Exclude<Pending, null>) => {
    setError(null);
    deletion.mutate(kind);
  };

  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>Delete account</CardTitle>
        <CardDescription>
          Removes your user, your sessions and your linked sign-in methods for good. If you are the only owner of an organization, transfer ownership to another
          member or delete the organization first.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Dialog
          open={open}
          onOpenChange={(next) => {
            setOpen(next);
            if (!next) {
              setPassword("");
              setError(null);
            }
          }}
        >
          <DialogTrigger asChild>
            <Button variant="destructive" data-testid="delete-account">
              <Trash2Icon /> Delete account
            </Button>
          </DialogTrigger>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>Delete your account?</DialogTitle>
              <DialogDescription>This cannot be undone. Confirm with your password, or with a link we mail to {user.email}.</DialogDescription>
            </DialogHeader>
            <FormError message={error} />
            {hasPassword ? (
              <form
                className="grid gap-3"
                onSubmit={(event) => {
                  event.preventDefault();
                  if (password) requestDeletion("password");
                }}
              >
                <Label htmlFor="delete-account-password">Password</Label>
                <Input
                  id="delete-account-password"
                  data-testid="delete-account-password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                />
                <Button type="submit" variant="destructive" disabled={!password || pending !== null} data-testid="delete-account-confirm">
                  {pending === "password" ? <Loader2Icon className="animate-spin" /> : <Trash2Icon />}
                  Delete my account
                </Button>
              </form>
            ) : null}
            {hasPassword ? (
              <div className="flex items-center gap-3 text-xs text-muted-foreground uppercase">
                <Separator className="flex-1" /> or <Separator className="flex-1" />
              </div>
            ) : null}
            <Button variant="outline" disabled={pending !== null} onClick={() => requestDeletion("email")} data-testid="delete-account-email">
              {pending === "email" ? <Loader2Icon className="animate-spin" /> : <MailIcon />}
              Email me a confirmation link
            </Button>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
