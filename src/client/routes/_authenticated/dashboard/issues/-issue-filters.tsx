import { XIcon } from "lucide-react";
import { ISSUE_SEVERITIES, ISSUE_STATUSES, type IssueSeverity, type IssueStatus } from "@/shared/triage.inputs";
import { EnvironmentFilter } from "@/client/components/environment-filter";
import { SearchBox } from "@/client/components/search-box";
import { SEVERITY_LABELS, STATUS_LABELS } from "@/client/components/issue-badges";
import { Button } from "@/client/components/ui/button";
import { Card } from "@/client/components/ui/card";
import { Input } from "@/client/components/ui/input";
import { NativeSelect } from "@/client/components/ui/select";
import { hasIssueFilters, type IssuesSearch } from "./-issues-search";

interface Props {
  search: IssuesSearch;
  onChange: (changes: Partial<IssuesSearch>) => void;
}

/** Status, severity, environments, last-seen range and free text; every filter lives in the URL. */
export function IssueFilters({ search, onChange }: Props) {
  return (
    <Card className="gap-3 px-4 py-4" data-testid="issue-filters">
      <div className="flex flex-wrap items-center gap-3">
        <SearchBox
          value={search.query ?? ""}
          onSubmit={(query) => onChange({ query: query || undefined })}
          label="Search issues"
          placeholder="Search title, culprit or message"
          testId="filter-query"
        />
        <NativeSelect
          aria-label="Status"
          className="w-40"
          value={search.status ?? ""}
          onChange={(event) => onChange({ status: (event.target.value || undefined) as IssueStatus | undefined })}
          data-testid="filter-status"
        >
          <option value="">All statuses</option>
          {ISSUE_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect
          aria-label="Severity"
          className="w-40"
          value={search.severity ?? ""}
          onChange={(event) => onChange({ severity: (event.target.value || undefined) as IssueSeverity | undefined })}
          data-testid="filter-severity"
        >
          <option value="">All severities</option>
          {ISSUE_SEVERITIES.map((severity) => (
            <option key={severity} value={severity}>
              {SEVERITY_LABELS[severity]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
        <EnvironmentFilter value={search.environments} onChange={(environments) => onChange({ environments })} />
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="text-muted-foreground">Last seen</span>
          <Input
            type="date"
            aria-label="Last seen from"
            className="h-9 w-40"
            value={search.from ?? ""}
            max={search.to}
            onChange={(event) => onChange({ from: event.target.value || undefined })}
            data-testid="filter-from"
          />
          <span className="text-muted-foreground">to</span>
          <Input
            type="date"
            aria-label="Last seen to"
            className="h-9 w-40"
            value={search.to ?? ""}
            min={search.from}
            onChange={(event) => onChange({ to: event.target.value || undefined })}
            data-testid="filter-to"
          />
        </div>
        {hasIssueFilters(search) ? (
          <Button
            variant="ghost"
            size="sm"
            className="ml-auto"
            onClick={() => onChange({ status: undefined, severity: undefined, environments: undefined, from: undefined, to: undefined, query: undefined })}
            data-testid="filter-clear"
          >
            <XIcon /> Clear filters
          </Button>
        ) : null}
      </div>
    </Card>
  );
}
