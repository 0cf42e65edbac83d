import { Link } from "@tanstack/react-router";
import { CheckIcon, WrenchIcon, XIcon } from "lucide-react";
import { BarChart } from "@/client/components/charts/bar-chart";
import { UntrustedText } from "@/client/components/untrusted-text";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { isAgentToolName, type AgentToolName } from "@/shared/agent-tool-names";
import { IN_NEXT_RELEASE } from "@/shared/triage.inputs";
import { SEVERITY_LABELS, STATUS_LABELS } from "@/client/components/issue-badges";
import { trpc } from "@/client/lib/trpc";
import { cleanText } from "@/client/lib/untrusted-text";

export interface ToolPart {
  type: string;
  toolCallId: string;
  state: string;
  input?: Record<string, unknown>;
  output?: unknown;
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
}

/** One label per tool of the agent: a tool added to the shared names does not compile until it has one. */
const LABELS: Record<AgentToolName, string> = {
  searchIssues: "Searched issues",
  getIssue: "Read an issue",
  issueTags: "Read tag distribution",
  listReleases: "Listed releases",
  getRelease: "Read a release",
  listIssueExceptions: "Listed exceptions",
  getException: "Read an exception",
  dailyStats: "Daily statistics",
  whatChanged: "Compared with the previous window",
  setIssueStatus: "Change status",
  setIssueSeverity: "Change severity",
};

/** The filter or target of a call in a few words: which issue, which filter. */
function describeInput(input: Record<string, unknown> = {}) {
  return Object.entries(input)
    .filter(([, value]) => value !== undefined && value !== null && value !== "")
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") : String(value)}`)
    .join(" · ");
}

function IssueLink({ issueId, projectId }: { issueId: string; projectId: string }) {
  return (
    <Link to="/dashboard/issues/$issueId" params={{ issueId }} search={{ projectId }} className="font-mono text-xs underline underline-offset-2">
      {issueId.slice(0, 8)}
    </Link>
  );
}

/** The write tools and the issue field each one changes. */
type ChangeToolName = Extract<AgentToolName, "setIssueStatus" | "setIssueSeverity">;
const CHANGES: Record<ChangeToolName, { field: "status" | "severity"; labels: Partial<Record<string, string>> }> = {
  setIssueStatus: { field: "status", labels: STATUS_LABELS },
  setIssueSeverity: { field: "severity", labels: SEVERITY_LABELS },
};
const isChangeTool = (name: string): name is ChangeToolName => Object.hasOwn(CHANGES, name);

/**
 * What a write tool changes, as a person approving it needs to read it: the issue by its title
 * (linked), and its field's value now → the value asked for. The tool's input names the issue by
 * id only; its title and current value are read here, through the same tenancy checks as the
 * issue screen (an id of another project is a plain "unknown issue").
 */
function ProposedChange({
  name,
  input,
  projectId,
  showCurrent,
}: {
  name: ChangeToolName;
  input: Record<string, unknown>;
  projectId: string;
  showCurrent: boolean;
}) {
  const { field, labels } = CHANGES[name];
  const issueId = typeof input.issueId === "string" ? input.issueId : "";
  const issue = trpc.issue.get.useQuery({ projectId, issueId }, { enabled: issueId !== "", retry: false });
  const next = typeof input[field] === "string" ? (input[field] as string) : "";
  const current = issue.data?.[field];
  return (
    <p className="mt-1 flex flex-wrap items-baseline gap-x-1.5 text-sm" data-testid="proposed-change">
      {issue.data ? (
        <Link
          to="/dashboard/issues/$issueId"
          params={{ issueId }}
          search={{ projectId }}
          className="min-w-0 font-medium break-words underline underline-offset-2 [overflow-wrap:anywhere]"
          data-testid="proposed-change-issue"
        >
          {cleanText(issue.data.title)}
        </Link>
      ) : (
        <span className="text-muted-foreground">{issue.isPending && issueId ? "Loading the issue…" : "An unknown issue"}</span>
      )}
      <span className="text-muted-foreground">· {field}</span>
      <span data-testid="proposed-change-values">
        {showCurrent && current ? `${labels[current] ?? current} → ` : "→ "}
        <span className="font-medium">{labels[next] ?? cleanText(next)}</span>
        {/* Resolving in a release changes what later exceptions do: the approver must read it. */}
        {typeof input.inRelease === "string" ? (
          <span className="font-medium" data-testid="proposed-change-release">
            {input.inRelease === IN_NEXT_RELEASE ? " in the next release" : ` in release ${cleanText(input.inRelease)}`}
          </span>
        ) : null}
      </span>
    </p>
  );
}

function DailyChart({ output }: { output: { days?: { date: string; count: number }[]; total?: number } }) {
  if (!output.days?.length) return null;
  return (
    <div className="mt-2">
      <p className="text-xs text-muted-foreground">{output.total?.toLocaleString()} occurrences</p>
      <BarChart
        className="h-32"
        data={output.days}
        index="date"
        categories={["count"]}
        categoryLabels={{ count: "Occurrences" }}
        showLegend={false}
        startEndOnly
      />
    </div>
  );
}

function IssueList({ issues, projectId }: { issues?: { issueId: string; title: string; eventCount: number }[]; projectId: string }) {
  if (!issues?.length) return <p className="text-xs text-muted-foreground">No issues.</p>;
  return (
    <ul className="mt-1 grid gap-1 text-xs">
      {issues.slice(0, 8).map((issue) => (
        <li key={issue.issueId} className="flex items-baseline gap-2">
          <IssueLink issueId={issue.issueId} projectId={projectId} />
          <UntrustedText value={issue.title} maxLength={120} className="min-w-0 flex-1" />
          <span className="text-muted-foreground tabular-nums">{issue.eventCount}×</span>
        </li>
      ))}
    </ul>
  );
}

function ToolOutput({ name, output, projectId }: { name: string; output: unknown; projectId: string }) {
  const value = (output ?? {}) as Record<string, unknown>;
  if (name === "dailyStats") return <DailyChart output={value as never} />;
  if (name === "searchIssues") return <IssueList issues={value.issues as never} projectId={projectId} />;
  if (name === "whatChanged")
    return (
      <div className="grid gap-1 text-xs">
        <p>
          {(value.newIssues as unknown[])?.length ?? 0} new · {(value.regressed as unknown[])?.length ?? 0} regressed ·{" "}
          {(value.spiking as unknown[])?.length ?? 0} spiking
        </p>
        <IssueList
          issues={[...((value.newIssues as never[]) ?? []), ...((value.regressed as never[]) ?? []), ...((value.spiking as never[]) ?? [])]}
          projectId={projectId}
        />
      </div>
    );
  if (typeof value.issueId === "string" && typeof value.exceptionId === "string")
    return (
      <Link
        to="/dashboard/issues/$issueId/exceptions/$exceptionId"
        params={{ issueId: value.issueId, exceptionId: value.exceptionId }}
        search={{ projectId }}
        className="text-xs underline underline-offset-2"
      >
        Open the exception
      </Link>
    );
  if (typeof value.issueId === "string")
    return (
      <p className="text-xs">
        Issue <IssueLink issueId={value.issueId} projectId={projectId} /> {typeof value.status === "string" ? `· ${value.status}` : null}
        {typeof value.severity === "string" ? ` · ${value.severity}` : null}
      </p>
    );
  return null;
}

interface Props {
  part: ToolPart;
  projectId: string;
  onApproval: (approvalId: string, approved: boolean) => void;
}

/** One tool call as a compact card: what was looked up, its result in brief, and Approve/Deny for writes. */
export function ToolCard({ part, projectId, onApproval }: Props) {
  const name = part.type.replace(/^tool-/, "");
  const change = isChangeTool(name) ? name : undefined;
  return (
    <div className="my-2 rounded-md border bg-muted/30 p-3" data-testid="tool-card" data-tool={name}>
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <WrenchIcon className="size-3.5 text-muted-foreground" aria-hidden />
        <span className="font-medium">{isAgentToolName(name) ? LABELS[name] : name}</span>
        <span className="min-w-0 flex-1 truncate text-muted-foreground">{change ? null : describeInput(part.input)}</span>
        {part.state === "output-error" ? <Badge variant="destructive">failed</Badge> : null}
        {part.state === "output-denied" ? <Badge variant="secondary">not approved</Badge> : null}
        {part.state === "input-streaming" || part.state === "input-available" ? <Badge variant="secondary">running…</Badge> : null}
      </div>
      {change && part.input ? (
        <ProposedChange name={change} input={part.input} projectId={projectId} showCurrent={part.state === "approval-requested"} />
      ) : null}
      {part.state === "output-available" && change ? <p className="mt-1 text-xs text-muted-foreground">Done.</p> : null}
      {part.state === "output-available" && !change ? (
        <div className="mt-1">
          <ToolOutput name={name} output={part.output} projectId={projectId} />
        </div>
      ) : null}
      {part.state === "output-error" ? <p className="mt-1 text-xs text-destructive">{part.errorText}</p> : null}
      {part.state === "approval-requested" && part.approval ? (
        <div className="mt-2 flex items-center gap-2">
          <span className="text-xs">The agent wants to make this change.</span>
          <Button size="sm" onClick={() => onApproval(part.approval!.id, true)}>
            <CheckIcon aria-hidden /> Approve
          </Button>
          <Button size="sm" variant="outline" onClick={() => onApproval(part.approval!.id, false)}>
            <XIcon aria-hidden /> Deny
          </Button>
        </div>
      ) : null}
      {part.state === "approval-responded" ? <p className="mt-1 text-xs text-muted-foreground">{part.approval?.approved ? "Approved" : "Denied"}</p> : null}
    </div>
  );
}
