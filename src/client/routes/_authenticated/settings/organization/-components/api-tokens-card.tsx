import { KeySquareIcon, Loader2Icon } from "lucide-react";
import { trpc } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { formatDateTime, formatRelative } from "@/client/lib/format";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";
import { usePermissions } from "@/client/lib/use-permissions";
import type { ApiTokenView } from "@/shared/api-token.views";
import { CreateApiTokenDialog } from "./create-api-token-dialog";
import type { OrganizationCardProps } from "./types";

/** Organization API tokens for the REST API and the MCP endpoint: listed to a role that may create or revoke them (the server checks again). */
export function ApiTokensCard({ organization }: Pick<OrganizationCardProps, "organization">) {
  const { can, refusal } = usePermissions();
  const canCreate = can("apiToken:create");
  const canRevoke = can("apiToken:revoke");
  return (
    <Card id="api-tokens" data-testid="api-tokens-card" className="scroll-mt-20">
      <CardHeader>
        <CardTitle>API tokens</CardTitle>
        <CardDescription>
          Tokens let scripts and AI assistants (MCP at <code>/api/mcp</code>) use this organization's data with <code>Authorization: Bearer …</code>. A token
          acts as the person who created it and stops working if they leave.
        </CardDescription>
        {canCreate ? (
          <CardAction>
            <CreateApiTokenDialog organizationSlug={organization.slug} />
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        {canCreate || canRevoke ? (
          <TokenList canRevoke={canRevoke} />
        ) : refusal("apiToken:create") ? (
          <p className="text-sm text-muted-foreground">Your role cannot see or manage API tokens.</p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function TokenList({ canRevoke }: { canRevoke: boolean }) {
  const tokens = trpc.apiToken.list.useQuery();
  if (tokens.isPending)
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Loader2Icon className="size-4 animate-spin" /> Loading tokens…
      </p>
    );
  if (tokens.error) return <QueryErrorAlert error={tokens.error} onRetry={() => void tokens.refetch()} title="Could not load the API tokens" />;
  if (tokens.data.length === 0) return <p className="text-sm text-muted-foreground">No API tokens yet.</p>;
  return (
    <Table data-testid="api-tokens">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Scopes</TableHead>
          <TableHead className="hidden md:table-cell">Created</TableHead>
          <TableHead className="hidden sm:table-cell">Last used</TableHead>
          <TableHead className="text-right">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {tokens.data.map((token) => (
          <TokenRow key={token.id} token={token} canRevoke={canRevoke} />
        ))}
      </TableBody>
    </Table>
  );
}

function TokenRow({ token, canRevoke }: { token: ApiTokenView; canRevoke: boolean }) {
  const utils = trpc.useUtils();
  const revoke = useToastMutation(utils.client.apiToken.revoke.mutate, {
    refresh: () => utils.apiToken.list.invalidate(),
    success: `Token ${token.name} revoked`,
  });
  const expired = token.expiresAt !== null && token.expiresAt.getTime() <= Date.now();
  return (
    <TableRow data-testid="api-token-row">
      <TableCell className="font-medium">
        <span className="flex items-center gap-2">
          <KeySquareIcon className="size-4 text-muted-foreground" aria-hidden /> {token.name}
        </span>
        <code className="text-xs text-muted-foreground">{token.prefix}…</code>
        {token.expiresAt ? (
          <span className="block text-xs text-muted-foreground">
            {expired ? <Badge variant="outline">Expired</Badge> : `Expires ${formatDateTime(token.expiresAt)}`}
          </span>
        ) : null}
      </TableCell>
      <TableCell>
        <span className="flex flex-wrap gap-1">
          {token.scopes.map((scope) => (
            <Badge key={scope} variant="secondary">
              {scope}
            </Badge>
          ))}
        </span>
      </TableCell>
      <TableCell className="hidden md:table-cell">
        {formatDateTime(token.createdAt)}
        {token.createdBy ? <span className="block text-xs text-muted-foreground">by {token.createdBy.name}</span> : null}
      </TableCell>
      <TableCell className="hidden sm:table-cell">{token.lastUsedAt ? formatRelative(token.lastUsedAt) : "Never"}</TableCell>
      <TableCell className="text-right">
        {canRevoke ? (
          <ConfirmDialog
            title={`Revoke ${token.name}?`}
            description="Programs and assistants using this token are refused from the next request. This cannot be undone."
            confirmLabel="Revoke token"
            destructive
            onConfirm={() => revoke.mutateAsync({ tokenId: token.id })}
            trigger={
              <Button variant="ghost" size="sm" className="text-destructive" data-testid="revoke-api-token">
                Revoke
              </Button>
            }
          />
        ) : null}
      </TableCell>
    </TableRow>
  );
}
