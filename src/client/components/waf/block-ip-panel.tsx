import { Link } from "@tanstack/react-router";
import { ShieldBanIcon, ShieldCheckIcon } from "lucide-react";
import { parseIpOrCidr } from "@/shared/ip-address";
import type { ExceptionDetail } from "@/shared/triage.views";
import { trpc } from "@/client/lib/trpc";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * The client IP of a stored exception: the request's (a Sentry SDK's `user.ip_address` or
 * `request.env.REMOTE_ADDR`, normalised at ingest into `request.clientIp`), else the user's (the
 * native SDK's client IP). Only a single, well-formed address counts.
 */
export function clientIpOf(exception: Pick<ExceptionDetail, "data">): string | null {
  const data = record(exception.data);
  for (const candidate of [record(data.request).clientIp, record(data.user).ip]) {
    if (typeof candidate !== "string") continue;
    const parsed = parseIpOrCidr(candidate);
    if (parsed && !candidate.includes("/")) return parsed.address;
  }
  return null;
}

/**
 * "Block this IP" for the exception's client: shows whether the AWS WAF block list already holds
 * it, and lets a role holding integration:block block (after a confirmation naming the IP set) or unblock it.
 */
export function BlockIpPanel({
  exception,
  projectId,
  label = "Client IP",
}: {
  exception: Pick<ExceptionDetail, "id" | "issueId" | "data">;
  projectId: string;
  label?: string;
}) {
  const ip = clientIpOf(exception);
  const canBlock = usePermissions().can("integration:block");
  const setup = trpc.waf.setup.useQuery(undefined, { enabled: ip !== null });
  const connected = Boolean(setup.data?.connection);
  const blockList = setup.data?.connection?.blockList ?? null;
  const status = trpc.waf.blockStatus.useQuery({ ip: ip ?? "" }, { enabled: ip !== null && blockList !== null });
  const utils = trpc.useUtils();
  const refresh = () =>
    Promise.all([utils.waf.blockStatus.invalidate(), utils.waf.audit.invalidate(), utils.waf.ipSets.invalidate(), utils.issue.get.invalidate()]);
  const origin = { projectId, issueId: exception.issueId, exceptionId: exception.id };
  const block = useToastMutation(() => utils.client.waf.block.mutate({ ip: ip!, ...origin }), {
    success: (result) => (result.outcome === "changed" ? `Blocked ${result.cidr} in ${result.ipSet.name}` : `${result.cidr} was already blocked`),
    onSuccess: refresh,
  });
  const unblock = useToastMutation(() => utils.client.waf.unblock.mutate({ ip: ip!, ...origin }), {
    success: (result) => `Unblocked ${result.cidr}`,
    onSuccess: refresh,
  });

  if (ip === null || setup.isPending || setup.error) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-lg border px-3 py-2 text-sm" data-testid="block-ip-panel" data-ip={ip}>
      <span>
        {label} <code className="font-mono text-xs">{ip}</code>
      </span>
      {!connected ? (
        <span className="text-muted-foreground">
          ·{" "}
          <Link to="/dashboard/integrations" className="underline">
            Connect AWS WAF
          </Link>{" "}
          to block it.
        </span>
      ) : !blockList ? (
        <span className="text-muted-foreground">
          · Choose a block list on the{" "}
          <Link to="/dashboard/integrations/aws/waf" className="underline">
            AWS WAF screen
          </Link>{" "}
          to block it.
        </span>
      ) : status.isPending ? (
        <span className="text-muted-foreground">· checking the block list…</span>
      ) : status.error ? (
        <span className="text-destructive">· {status.error.message}</span>
      ) : status.data.blocked ? (
        <>
          <Badge variant="destructive" data-testid="ip-blocked">
            <ShieldBanIcon /> Blocked in {blockList.name}
          </Badge>
          {canBlock ? (
            <ConfirmDialog
              trigger={
                <Button size="sm" variant="outline" data-testid="unblock-ip">
                  Unblock
                </Button>
              }
              title={`Unblock ${ip}?`}
              description={`${status.data.cidr} is removed from the AWS WAF IP set ${blockList.name}.`}
              confirmLabel="Unblock"
              onConfirm={() => unblock.mutateAsync(undefined)}
              testId="unblock-ip-dialog"
            />
          ) : null}
        </>
      ) : (
        <>
          <Badge variant="outline" data-testid="ip-not-blocked">
            <ShieldCheckIcon /> Not blocked
          </Badge>
          {canBlock ? (
            <ConfirmDialog
              trigger={
                <Button size="sm" variant="destructive" data-testid="block-ip">
                  Block this IP
                </Button>
              }
              title={`Block ${ip}?`}
              description={
                <span data-testid="block-ip-target">
                  {status.data.cidr} is added to the AWS WAF IP set <strong>{blockList.name}</strong> ({blockList.scope}). Requests from it are then refused by
                  every web ACL rule that blocks with this set.
                </span>
              }
              confirmLabel="Block"
              destructive
              onConfirm={() => block.mutateAsync(undefined)}
              testId="block-ip-dialog"
            />
          ) : null}
        </>
      )}
    </div>
  );
}
