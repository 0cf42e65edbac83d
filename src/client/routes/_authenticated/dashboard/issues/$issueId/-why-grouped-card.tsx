import { SplitIcon } from "lucide-react";
import type { IssueFingerprint } from "@/shared/grouping.views";
import { trpc } from "@/client/lib/trpc";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { formatNumber } from "@/client/lib/format";
import { cleanText } from "@/client/lib/untrusted-text";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";

const KIND_LABELS: Record<string, string> = {
  type: "Exception type",
  frame: "Crashing frame",
  below: "Frame below",
  recursion: "Recursion through",
  value: "Message template",
  message: "Message template",
  shape: "Rejected value's shape",
  custom: "SDK fingerprint",
};

/** A component such as `frame:money|parseAmount|const text = …` as its kind and its text. */
function splitComponent(component: string): { kind: string; text: string } {
  const at = component.indexOf(":");
  if (at < 0) return { kind: component, text: "" };
  return { kind: KIND_LABELS[component.slice(0, at)] ?? component.slice(0, at), text: component.slice(at + 1).replaceAll("|", " · ") };
}

/**
 * "Why grouped": the fingerprints that send events to this issue and what each is made of, so a
 * user can see why two events landed together (or apart) and fix it with an SDK fingerprint; with
 * more than one fingerprint (after a merge), each can be split back out into its own issue.
 */
export function WhyGroupedCard({ projectId, issueId }: { projectId: string; issueId: string }) {
  const canTriage = usePermissions().can("issue:triage");
  const utils = trpc.useUtils();
  const fingerprints = trpc.issue.fingerprints.useQuery({ projectId, issueId });
  const unmerge = useToastMutation(utils.client.issue.unmerge.mutate, {
    success: (split) => (split.length === 1 ? `Split out “${split[0].title}”` : `Split out ${split.length} issues`),
    onSuccess: () => Promise.all([utils.issue.invalidate(), utils.exception.invalidate(), utils.stats.invalidate()]),
  });

  return (
    <Card className="gap-4" data-testid="why-grouped">
      <CardHeader>
        <CardTitle>Why grouped</CardTitle>
        <CardDescription>
          The fingerprints that send events here. Set <code className="font-mono">fingerprint</code> in the SDK to group differently.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {fingerprints.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : fingerprints.error ? (
          <QueryErrorAlert error={fingerprints.error} onRetry={() => void fingerprints.refetch()} title="Could not load the fingerprints" />
        ) : (
          fingerprints.data.map((fingerprint) => (
            <FingerprintEntry
              key={fingerprint.fingerprint}
              fingerprint={fingerprint}
              canSplit={canTriage && fingerprints.data.length > 1}
              pending={unmerge.isPending}
              onSplit={() => unmerge.mutateAsync({ projectId, issueId, fingerprints: [fingerprint.fingerprint] })}
            />
          ))
        )}
      </CardContent>
    </Card>
  );
}

interface EntryProps {
  fingerprint: IssueFingerprint;
  canSplit: boolean;
  pending: boolean;
  onSplit: () => Promise<unknown>;
}

function FingerprintEntry({ fingerprint, canSplit, pending, onSplit }: EntryProps) {
  return (
    <section className="grid gap-2 border-l-2 pl-3" data-testid="issue-fingerprint" data-fingerprint={fingerprint.fingerprint}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <code className="font-mono text-xs" title={fingerprint.fingerprint}>
          {fingerprint.fingerprint.slice(0, 12)}
        </code>
        <Badge variant="outline">v{fingerprint.groupingVersion}</Badge>
        {fingerprint.primary ? <Badge variant="secondary">original</Badge> : null}
        <span className="text-xs text-muted-foreground" data-testid="fingerprint-event-count">
          {formatNumber(fingerprint.eventCount)} recent {fingerprint.eventCount === 1 ? "event" : "events"}
        </span>
        {canSplit ? (
          <ConfirmDialog
            title="Split this fingerprint out?"
            description="Its events, counts and future events move to a new issue of their own."
            confirmLabel="Split out"
            onConfirm={onSplit}
            testId="unmerge-dialog"
            trigger={
              <Button variant="ghost" size="sm" className="ml-auto" disabled={pending} data-testid="unmerge-fingerprint">
                <SplitIcon /> Split out
              </Button>
            }
          />
        ) : null}
      </div>
      {fingerprint.components ? (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
          {fingerprint.components.map((component, index) => {
            const { kind, text } = splitComponent(component);
            return (
              <div key={index} className="contents">
                <dt className="text-muted-foreground">{kind}</dt>
                <dd className="truncate font-mono" title={cleanText(text)}>
                  {cleanText(text) || "—"}
                </dd>
              </div>
            );
          })}
        </dl>
      ) : (
        <p className="text-xs text-muted-foreground">Made by grouping v{fingerprint.groupingVersion} before its parts were recorded.</p>
      )}
    </section>
  );
}
