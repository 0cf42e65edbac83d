import { useNavigate, useRouter } from "@tanstack/react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Building2Icon, CheckIcon, Loader2Icon, XIcon } from "lucide-react";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { organizationKeys, switchOrganization, userInvitationsQueryOptions } from "@/client/lib/organization";
import { useRequiredSession } from "@/client/lib/session";
import { cn } from "@/client/lib/utils";
import { QueryErrorAlert } from "./query-error-alert";
import { Badge } from "./ui/badge";
import { Button } from "./ui/button";
import { Skeleton } from "./ui/skeleton";

interface Props {
  /** The invitation a mail link pointed at; it is marked and listed first. */
  highlightId?: string;
  /** Text when nothing is pending; null renders nothing at all. */
  emptyText?: string | null;
}

/** The signed-in user's pending invitations, with accept and decline. */
export function InvitationList({ highlightId, emptyText = "You have no pending invitations." }: Props) {
  const { user } = useRequiredSession();
  // The auth service lists invitations only for a verified address; asking earlier just fails.
  const invitations = useQuery({ ...userInvitationsQueryOptions(), enabled: user.emailVerified });
  const queryClient = useQueryClient();
  const router = useRouter();
  const navigate = useNavigate();
  const accept = useToastMutation(
    async ({ invitationId, organizationId }: { invitationId: string; organizationId: string; organizationName: string }) => {
      await unwrap(authClient.organization.acceptInvitation({ invitationId }));
      await switchOrganization(queryClient, organizationId);
    },
    {
      success: (_data, { organizationName }) => `You joined ${organizationName}`,
      onSuccess: async () => {
        await navigate({ to: "/dashboard" });
        await router.invalidate();
      },
    },
  );
  const reject = useToastMutation((invitationId: string) => unwrap(authClient.organization.rejectInvitation({ invitationId })), {
    invalidate: [organizationKeys.userInvitations],
    success: "Invitation declined",
  });
  const busy = accept.isPending ? accept.variables.invitationId : reject.isPending ? reject.variables : null;

  if (!user.emailVerified) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="invitations-need-verification">
        Verify your email address ({user.email}) to see the invitations sent to it.
      </p>
    );
  }
  if (invitations.isPending) return <Skeleton className="h-20 w-full" />;
  if (invitations.error)
    return <QueryErrorAlert title="Could not load your invitations" error={invitations.error} onRetry={() => void invitations.refetch()} />;

  const list = [...invitations.data].sort((a, b) => Number(b.id === highlightId) - Number(a.id === highlightId));
  // A mail link whose invitation is gone (answered, canceled, expired, or sent to another address).
  const staleLink =
    highlightId && !list.some((invitation) => invitation.id === highlightId) ? (
      <p className="text-sm text-muted-foreground" data-testid="invitation-link-stale">
        The invitation from your link is no longer pending, or it was sent to another email address than the one you are signed in with.
      </p>
    ) : null;
  if (list.length === 0) {
    if (emptyText === null) return staleLink;
    return (
      <div className="grid gap-2">
        {staleLink}
        <p className="text-sm text-muted-foreground" data-testid="no-invitations">
          {emptyText}
        </p>
      </div>
    );
  }

  return (
    <div className="grid gap-3">
      {staleLink}
      <ul className="grid gap-3" data-testid="invitation-list">
        {list.map((invitation) => {
          const highlighted = invitation.id === highlightId;
          const organizationName = (invitation as { organizationName?: string }).organizationName ?? "an organization";
          return (
            <li
              key={invitation.id}
              data-testid="invitation"
              data-highlighted={highlighted || undefined}
              className={cn("flex flex-wrap items-center gap-3 rounded-lg border p-4", highlighted && "border-primary ring-2 ring-primary/20")}
            >
              <Building2Icon className="size-5 text-muted-foreground" aria-hidden />
              <div className="grid flex-1 gap-0.5">
                <span className="font-medium">{organizationName}</span>
                <span className="text-xs text-muted-foreground">
                  Join as <Badge variant="secondary">{invitation.role}</Badge> · expires {new Date(invitation.expiresAt).toLocaleDateString()}
                </span>
              </div>
              <div className="flex gap-2">
                <Button variant="outline" size="sm" disabled={busy !== null} onClick={() => reject.mutate(invitation.id)} data-testid="invite-reject">
                  <XIcon /> Decline
                </Button>
                <Button
                  size="sm"
                  disabled={busy !== null}
                  onClick={() => accept.mutate({ invitationId: invitation.id, organizationId: invitation.organizationId, organizationName })}
                  data-testid="invite-accept"
                >
                  {busy === invitation.id ? <Loader2Icon className="animate-spin" /> : <CheckIcon />}
                  Accept
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
