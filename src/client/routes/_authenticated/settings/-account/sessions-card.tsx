import { useNavigate } from "@tanstack/react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LaptopIcon, LogOutIcon } from "lucide-react";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { accountKeys, sessionsQueryOptions } from "@/client/lib/accounts";
import { clearSessionData, useRequiredSession } from "@/client/lib/session";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";
import { describeUserAgent } from "./describe-user-agent";

export function SessionsCard() {
  const { session: current } = useRequiredSession();
  const sessions = useQuery(sessionsQueryOptions());
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const revokeOne = useToastMutation((token: string) => unwrap(authClient.revokeSession({ token })), {
    success: "Session signed out",
    invalidate: [accountKeys.sessions],
  });
  const revokeOthers = useToastMutation(() => unwrap(authClient.revokeOtherSessions()), {
    success: "Signed out of all other sessions",
    invalidate: [accountKeys.sessions],
  });

  const revokeAll = useToastMutation(() => unwrap(authClient.revokeSessions()), {
    // This tab's session is gone too.
    onSuccess: async () => {
      clearSessionData(queryClient);
      await navigate({ to: "/auth/login", replace: true });
    },
  });

  const list = [...(sessions.data ?? [])].sort((a, b) => Number(b.token === current.token) - Number(a.token === current.token));

  return (
    <Card>
      <CardHeader>
        <CardTitle>Sessions</CardTitle>
        <CardDescription>Browsers and devices signed in to your account.</CardDescription>
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <Skeleton className="h-24" />
        ) : sessions.error ? (
          <QueryErrorAlert error={sessions.error} onRetry={() => void sessions.refetch()} />
        ) : (
          <ul className="divide-y rounded-lg border" data-testid="session-list">
            {list.map((session) => {
              const isCurrent = session.token === current.token;
              return (
                <li key={session.id} className="flex items-center gap-3 px-4 py-3" data-testid="session-row">
                  <LaptopIcon className="size-4 text-muted-foreground" aria-hidden />
                  <div className="grid flex-1 text-sm">
                    <span className="flex items-center gap-2 font-medium">
                      {describeUserAgent(session.userAgent)}
                      {isCurrent ? <Badge variant="success">This device</Badge> : null}
                    </span>
                    <span className="text-xs text-muted-foreground">
                      {session.ipAddress || "Unknown address"} · signed in {new Date(session.createdAt).toLocaleString()} · expires{" "}
                      {new Date(session.expiresAt).toLocaleDateString()}
                    </span>
                  </div>
                  {isCurrent ? null : (
                    <Button
                      variant="ghost"
                      size="sm"
                      disabled={revokeOne.isPending}
                      onClick={() => revokeOne.mutate(session.token)}
                      data-testid="revoke-session"
                    >
                      <LogOutIcon /> Sign out
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
      <CardFooter className="flex-wrap gap-2">
        <Button
          variant="outline"
          disabled={revokeOthers.isPending || list.length <= 1}
          onClick={() => revokeOthers.mutate()}
          data-testid="revoke-other-sessions-button"
        >
          Sign out other sessions
        </Button>
        <ConfirmDialog
          title="Sign out everywhere?"
          description="Every session of your account ends, this one included. You will need to sign in again."
          confirmLabel="Sign out everywhere"
          destructive
          onConfirm={() => revokeAll.mutateAsync(undefined)}
          trigger={
            <Button variant="outline" className="text-destructive" data-testid="revoke-all-sessions">
              Sign out everywhere
            </Button>
          }
        />
      </CardFooter>
    </Card>
  );
}
