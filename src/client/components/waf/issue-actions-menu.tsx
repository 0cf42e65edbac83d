import { useState } from "react";
import { EllipsisIcon, ShieldBanIcon } from "lucide-react";
import { ISSUE_DETAIL_PRELOAD_SIZE } from "@/shared/constants";
import { trpc } from "@/client/lib/trpc";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { Button } from "@/client/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/client/components/ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/client/components/ui/dropdown-menu";
import { clientIpOf } from "./block-ip-panel";

interface ClientIp {
  ip: string;
  /** How many of the sampled exceptions came from it. */
  count: number;
  /** The newest of them: the block's origin in the audit. */
  exceptionId: string;
}

/**
 * The issue's actions menu with "Block this IP…": the client IPs of the issue's newest exceptions
 * (the page preloads them), counted. One address goes straight to the confirmation; several are
 * offered to choose from first. Shown only to a role holding integration:block, once AWS WAF has a
 * block list; the block itself is the exception page's (same mutation, same confirmation).
 */
export function IssueActionsMenu({ projectId, issueId }: { projectId: string; issueId: string }) {
  const canBlock = usePermissions().can("integration:block");
  const setup = trpc.waf.setup.useQuery(undefined, { enabled: canBlock });
  const blockList = setup.data?.connection?.blockList ?? null;
  const list = trpc.exception.list.useQuery({ projectId, issueId, page: 1, size: ISSUE_DETAIL_PRELOAD_SIZE }, { enabled: blockList !== null });
  const ids = list.data?.items.map((item) => item.id) ?? [];
  const details = trpc.useQueries((t) => ids.map((exceptionId) => t.exception.get({ projectId, exceptionId })));
  const [step, setStep] = useState<"closed" | "choose" | "confirm">("closed");
  const [chosen, setChosen] = useState<ClientIp | null>(null);
  const utils = trpc.useUtils();
  const block = useToastMutation((target: ClientIp) => utils.client.waf.block.mutate({ ip: target.ip, projectId, issueId, exceptionId: target.exceptionId }), {
    success: (result) => (result.outcome === "changed" ? `Blocked ${result.cidr} in ${result.ipSet.name}` : `${result.cidr} was already blocked`),
    onSuccess: () =>
      Promise.all([utils.waf.blockStatus.invalidate(), utils.waf.audit.invalidate(), utils.waf.ipSets.invalidate(), utils.issue.get.invalidate()]),
  });

  if (!canBlock || !blockList) return null;
  const ips = new Map<string, ClientIp>();
  // Newest first, so an address's first exception is its newest.
  for (const detail of details) {
    const ip = detail.data ? clientIpOf(detail.data) : null;
    if (!ip || !detail.data) continue;
    const seen = ips.get(ip);
    if (seen) seen.count += 1;
    else ips.set(ip, { ip, count: 1, exceptionId: detail.data.id });
  }
  const choices = [...ips.values()].sort((a, b) => b.count - a.count);
  const sampled = details.filter((detail) => detail.data).length;
  if (choices.length === 0) return null;

  const start = () => {
    if (choices.length === 1) {
      setChosen(choices[0]!);
      setStep("confirm");
    } else setStep("choose");
  };
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button size="sm" variant="outline" data-testid="issue-actions">
            <EllipsisIcon /> Actions
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={start} data-testid="block-ip" data-ips={choices.map((choice) => choice.ip).join(" ")}>
            <ShieldBanIcon /> {choices.length === 1 ? "Block this IP…" : "Block an IP…"}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <Dialog open={step !== "closed"} onOpenChange={(open) => (open ? null : setStep("closed"))}>
        {step === "choose" ? (
          <DialogContent data-testid="block-ip-choice-dialog">
            <DialogHeader>
              <DialogTitle>Which address?</DialogTitle>
              <DialogDescription>
                The issue's latest {sampled} exceptions came from {choices.length} client IPs.
              </DialogDescription>
            </DialogHeader>
            <ul className="grid gap-2">
              {choices.map((choice) => (
                <li key={choice.ip}>
                  <Button
                    variant="outline"
                    className="w-full justify-between"
                    data-testid="block-ip-choice"
                    data-ip={choice.ip}
                    onClick={() => {
                      setChosen(choice);
                      setStep("confirm");
                    }}
                  >
                    <code className="font-mono text-xs">{choice.ip}</code>
                    <span className="text-muted-foreground" data-testid="block-ip-choice-count">
                      {choice.count} of {sampled} exceptions
                    </span>
                  </Button>
                </li>
              ))}
            </ul>
          </DialogContent>
        ) : step === "confirm" && chosen ? (
          <DialogContent data-testid="block-ip-dialog">
            <DialogHeader>
              <DialogTitle>{`Block ${chosen.ip}?`}</DialogTitle>
              <DialogDescription asChild>
                <div>
                  <span data-testid="block-ip-target">
                    {chosen.ip} is added to the AWS WAF IP set <strong>{blockList.name}</strong> ({blockList.scope}). Requests from it are then refused by every
                    web ACL rule that blocks with this set.
                  </span>
                </div>
              </DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <Button variant="outline" onClick={() => setStep("closed")}>
                Cancel
              </Button>
              <Button
                variant="destructive"
                disabled={block.isPending}
                data-testid="confirm-submit"
                onClick={() =>
                  void block.mutateAsync(chosen).then(
                    () => setStep("closed"),
                    () => undefined,
                  )
                }
              >
                Block
              </Button>
            </DialogFooter>
          </DialogContent>
        ) : null}
      </Dialog>
    </>
  );
}
