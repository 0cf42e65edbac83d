import { ISSUE_SEVERITIES, ISSUE_STATUSES, type IssueSeverity, type IssueStatus } from "@/shared/triage.inputs";
import type { IssueDetail } from "@/shared/triage.views";
import { trpc } from "@/client/lib/trpc";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { cleanText } from "@/client/lib/untrusted-text";
import { useDocumentTitle } from "@/client/lib/use-document-title";
import { LevelBadge, RegressionBadge, SEVERITY_LABELS, SeverityBadge, STATUS_LABELS, StatusBadge } from "@/client/components/issue-badges";
import { FormField } from "@/client/components/form-field";
import { Badge } from "@/client/components/ui/badge";
import { NativeSelect } from "@/client/components/ui/select";
import { DeleteIssueButton } from "./-delete-issue-button";
import { IssueLocation } from "./-issue-location";
import { ReleaseBadges } from "./-release-badges";
import { ResolveMenu } from "./-resolve-menu";

/** Title, culprit and badges, the resolve menu, and the status and severity controls for a role that may triage. */
export function IssueHeader({ issue }: { issue: IssueDetail }) {
  const { can } = usePermissions();
  const canTriage = can("issue:triage");
  const title = cleanText(issue.title);
  useDocumentTitle(title);
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      {/* A 16rem basis, not 0: where the title and the controls do not fit side by side (a phone),
          the controls wrap below instead of squeezing the title's column under its own badges. */}
      <div className="grid min-w-0 flex-[1_1_16rem] gap-2">
        <h1 className="text-2xl font-semibold tracking-tight break-words [overflow-wrap:anywhere]" data-testid="issue-title">
          {title}
        </h1>
        {issue.culprit ? <p className="font-mono text-sm break-all text-muted-foreground">{cleanText(issue.culprit)}</p> : null}
        <IssueLocation issue={issue} />
        <div className="flex flex-wrap items-center gap-1.5">
          <LevelBadge level={issue.level} />
          <StatusBadge status={issue.status} />
          <SeverityBadge severity={issue.severity} />
          {issue.isRegression ? <RegressionBadge /> : null}
          {issue.platform ? <Badge variant="secondary">{cleanText(issue.platform)}</Badge> : null}
          <ReleaseBadges issue={issue} />
        </div>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <ResolveMenu issue={issue} />
        {canTriage ? <IssueControls issue={issue} /> : null}
        {can("issue:delete") ? <DeleteIssueButton issue={issue} /> : null}
      </div>
    </div>
  );
}

function IssueControls({ issue }: { issue: IssueDetail }) {
  const utils = trpc.useUtils();
  const scope = { projectId: issue.projectId, issueId: issue.id };
  const refresh = () => Promise.all([utils.issue.invalidate(), utils.project.overview.invalidate()]);

  const setStatus = useToastMutation(utils.client.issue.setStatus.mutate, {
    refresh,
    success: (_, { status }) => `Issue marked as ${STATUS_LABELS[status].toLowerCase()}`,
  });
  const setSeverity = useToastMutation(utils.client.issue.setSeverity.mutate, {
    refresh,
    success: (_, { severity }) => `Severity set to ${SEVERITY_LABELS[severity].toLowerCase()}`,
  });

  // While a change is saved (and the issue re-read), the control shows the chosen value.
  const status = setStatus.isPending ? setStatus.variables.status : issue.status;
  const severity = setSeverity.isPending ? setSeverity.variables.severity : issue.severity;

  return (
    <div className="flex flex-wrap items-end gap-3">
      <FormField id="issue-status" label="Status" className="gap-1.5">
        <NativeSelect
          id="issue-status"
          className="w-36"
          value={status}
          disabled={setStatus.isPending}
          onChange={(event) => setStatus.mutate({ ...scope, status: event.target.value as IssueStatus })}
          data-testid="issue-status-select"
        >
          {ISSUE_STATUSES.map((value) => (
            <option key={value} value={value}>
              {STATUS_LABELS[value]}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField id="issue-severity" label="Severity" className="gap-1.5">
        <NativeSelect
          id="issue-severity"
          className="w-36"
          value={severity}
          disabled={setSeverity.isPending}
          onChange={(event) => setSeverity.mutate({ ...scope, severity: event.target.value as IssueSeverity })}
          data-testid="issue-severity-select"
        >
          {ISSUE_SEVERITIES.map((value) => (
            <option key={value} value={value}>
              {SEVERITY_LABELS[value]}
            </option>
          ))}
        </NativeSelect>
      </FormField>
    </div>
  );
}
