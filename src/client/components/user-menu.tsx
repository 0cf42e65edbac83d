import { Link, useNavigate } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { LogOutIcon, MailIcon, SettingsIcon, UserIcon } from "lucide-react";
import { authClient } from "@/client/lib/auth-client";
import { clearSessionData, useRequiredSession } from "@/client/lib/session";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { Button } from "./ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "./ui/dropdown-menu";
import { UserAvatar } from "./user-avatar";

export function UserMenu() {
  const { user } = useRequiredSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const signOut = useToastMutation(
    async () => {
      const { error } = await authClient.signOut();
      if (error) throw new Error(error.message || "Could not sign out");
    },
    {
      onSuccess: async () => {
        clearSessionData(queryClient);
        await navigate({ to: "/auth/login", replace: true });
      },
    },
  );

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="rounded-full" data-testid="user-menu" aria-label="Account menu">
          <UserAvatar name={user.name} image={user.image} />
        </Button>
      </DropdownMenuTrigger>
      {/* Kept inside the viewport on a phone (the trigger sits at the right edge). */}
      <DropdownMenuContent align="end" collisionPadding={8} className="w-60 max-w-[calc(100vw-1rem)]">
        <DropdownMenuLabel className="grid gap-0.5">
          <span className="truncate">{user.name}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/dashboard/profile">
            <UserIcon /> Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/settings/account">
            <SettingsIcon /> Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/dashboard/invites">
            <MailIcon /> Invitations
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem data-testid="sign-out" onSelect={() => signOut.mutate(undefined)}>
          <LogOutIcon /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
