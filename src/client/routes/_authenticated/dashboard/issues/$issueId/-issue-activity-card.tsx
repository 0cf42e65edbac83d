import type { IssueActivityEntry } from "@/shared/triage.views";
import type { IssueSeverity, IssueStatus } from "@/shared/triage.inputs";
import { SEVERITY_LABELS, STATUS_LABELS } from "@/client/components/issue-badges";
import { RelativeTime } from "@/client/components/relative-time";
import { cleanText } from "@/client/lib/untrusted-text";
import { Card, CardContent, CardHeader, CardTitle } from "@/client/components/ui/card";

/** The first deploy of the issue's first release, placed on the timeline among the changes. */
export interface TimelineDeploy {
  version: string;
  environment: string;
  dateFinished: Date;
}

/**
 * Who changed the issue's status or severity, merged or split it, when it regressed, and when
 * (newest first as the API sends it) — with the first deploy of its first release in date order.
 */
export function IssueActivityCard({ activity, deploy }: { activity: IssueActivityEntry[]; deploy?: TimelineDeploy | null }) {
  const deployAt = deploy ? activity.findIndex((entry) => entry.createdAt.getTime() < deploy.dateFinished.getTime()) : -1;
  const deployEntry = deploy ? <DeployEntry key="first-deploy" deploy={deploy} /> : null;
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Activity</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-3" data-testid="issue-activity">
          {activity.length === 0 && !deploy ? <li className="text-sm text-muted-foreground">No changes yet.</li> : null}
          {activity.map((entry, index) => [
            index === deployAt ? deployEntry : null,
            <li key={entry.id} className="grid gap-0.5 border-l-2 pl-3 text-sm" data-testid="issue-activity-entry" data-kind={entry.kind}>
              {entry.via === "agent" ? (
                // The agent made the change; the person who approved it in the chat is named as such.
                <span>
                  <span className="font-medium">The AI agent</span> {describe(entry)}, on{" "}
                  <span className="font-medium">{actorName(entry) ?? "a former member"}</span>’s approval
                </span>
              ) : (
                <span>
                  <span className="font-medium">{actorName(entry) ?? "Faultline"}</span> {describe(entry)}
                </span>
              )}
              <RelativeTime date={entry.createdAt} className="text-xs text-muted-foreground" />
            </li>,
          ])}
          {deployAt === -1 ? deployEntry : null}
        </ol>
      </CardContent>
    </Card>
  );
}

function DeployEntry({ deploy }: { deploy: TimelineDeploy }) {
  return (
    <li className="grid gap-0.5 border-l-2 border-l-primary/40 pl-3 text-sm" data-testid="issue-activity-entry" data-kind="first_deploy">
      <span>
        Release <span className="font-mono">{cleanText(deploy.version)}</span>, where it was first seen, was first deployed to{" "}
        <span className="font-medium">{cleanText(deploy.environment)}</span>
      </span>
      <RelativeTime date={deploy.dateFinished} className="text-xs text-muted-foreground" />
    </li>
  );
}

function actorName(entry: IssueActivityEntry): string | undefined {
  return entry.actor?.name || entry.actor?.email || undefined;
}

function label(kind: IssueActivityEntry["kind"], value: string | null): string {
  if (value === null) return "none";
  const labels: Record<string, string> = kind === "status" ? STATUS_LABELS : SEVERITY_LABELS;
  return labels[value as IssueStatus & IssueSeverity] ?? value;
}

function describe(entry: IssueActivityEntry): string {
  if (entry.kind === "waf_block") return `blocked ${entry.to} in AWS WAF (IP set ${entry.from})`;
  if (entry.kind === "waf_unblock") return `unblocked ${entry.to} in AWS WAF (IP set ${entry.from})`;
  if (entry.kind === "merge") return `merged “${cleanText(entry.from ?? "")}” into this issue`;
  if (entry.kind === "unmerge") {
    // The source records the fingerprint it gave up; the new issue records where it came from.
    return entry.to && entry.from && /^[0-9a-f]{12}$/.test(entry.from)
      ? `split fingerprint ${entry.from} out into “${cleanText(entry.to)}”`
      : `split this issue out of “${cleanText(entry.from ?? "")}”`;
  }
  // The badge's words (-release-badges.tsx), as something the actor did.
  if (entry.kind === "resolved_in_next_release") return `resolved it in the next release (after ${cleanText(entry.to ?? "")})`;
  if (entry.kind === "resolved_in_release") return `resolved it in release ${cleanText(entry.to ?? "")}`;
  if (entry.kind === "regression_in_release") {
    const resolvedIn = `it was resolved as of release ${cleanText(entry.from ?? "")}`;
    return entry.to
      ? `reopened it as a regression in release ${cleanText(entry.to)}: an exception from that release arrived (${resolvedIn})`
      : `reopened it as a regression: an exception without a known release arrived (${resolvedIn})`;
  }
  if (entry.kind === "regression") return `reopened it as a regression: a new exception arrived after it was ${label("status", entry.from).toLowerCase()}`;
  const what = entry.kind === "status" ? "status" : "severity";
  if (entry.from === null) return `set the ${what} to ${label(entry.kind, entry.to)}`;
  return `changed the ${what} from ${label(entry.kind, entry.from)} to ${label(entry.kind, entry.to)}`;
}
