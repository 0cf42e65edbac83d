import { SheetIcon } from "lucide-react";
import { MAX_CSV_ROWS } from "@/shared/export.inputs";
import { issuesCsvUrl } from "@/client/lib/export-urls";
import { useActiveOrganizationId } from "@/client/lib/use-organization";
import { Button } from "@/client/components/ui/button";
import { issueListInput, type IssuesSearch } from "./-issues-search";

/** "Export CSV": the issues the list's current filters and sort match, as a download (at most MAX_CSV_ROWS rows). */
export function ExportCsvButton({ projectId, search }: { projectId: string; search: IssuesSearch }) {
  const organizationId = useActiveOrganizationId();
  if (!organizationId) return null;
  return (
    <Button asChild size="sm" variant="outline" title={`The issues these filters match, at most ${MAX_CSV_ROWS.toLocaleString()}`}>
      <a href={issuesCsvUrl(organizationId, issueListInput(projectId, search))} download data-testid="export-csv">
        <SheetIcon /> Export CSV
      </a>
    </Button>
  );
}
