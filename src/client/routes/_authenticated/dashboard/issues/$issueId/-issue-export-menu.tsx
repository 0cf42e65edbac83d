import { useState } from "react";
import { ClipboardCopyIcon, DownloadIcon, FileDownIcon, Loader2Icon } from "lucide-react";
import { DEFAULT_EXPORT_OCCURRENCES } from "@/shared/export.inputs";
import { issueExportUrl } from "@/client/lib/export-urls";
import { useActiveOrganizationId } from "@/client/lib/use-organization";
import { toast } from "@/client/lib/toast";
import { Button } from "@/client/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/client/components/ui/dropdown-menu";

/** The error message of a failed export answer ({ error: { message } }), or its status. */
async function failureOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: string } };
    return body.error?.message ?? `HTTP ${response.status}`;
  } catch {
    return `HTTP ${response.status}`;
  }
}

/**
 * "Export" on the issue page: the issue with its latest occurrences as a JSON or Markdown download
 * (links to the REST export, which takes the session), or the Markdown copied to the clipboard, for
 * pasting into an LLM or a ticket. Any member may export what they may read.
 */
export function IssueExportMenu({ projectId, issueId }: { projectId: string; issueId: string }) {
  const organizationId = useActiveOrganizationId();
  const [copying, setCopying] = useState(false);
  if (!organizationId) return null;

  const copyMarkdown = async () => {
    setCopying(true);
    try {
      const response = await fetch(issueExportUrl(organizationId, projectId, issueId, "markdown", false), { credentials: "same-origin" });
      if (!response.ok) throw new Error(await failureOf(response));
      await navigator.clipboard.writeText(await response.text());
      toast.success("The issue as Markdown is in the clipboard");
    } catch (error) {
      toast.error(`Could not copy the issue: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setCopying(false);
    }
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button size="sm" variant="outline" data-testid="issue-export" disabled={copying}>
          {copying ? <Loader2Icon className="animate-spin" /> : <FileDownIcon />} Export
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">With the latest {DEFAULT_EXPORT_OCCURRENCES} occurrences</DropdownMenuLabel>
        <DropdownMenuItem asChild>
          <a href={issueExportUrl(organizationId, projectId, issueId, "json", true)} download data-testid="export-json">
            <DownloadIcon /> Download JSON
          </a>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <a href={issueExportUrl(organizationId, projectId, issueId, "markdown", true)} download data-testid="export-markdown">
            <DownloadIcon /> Download Markdown
          </a>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void copyMarkdown()} data-testid="copy-markdown">
          <ClipboardCopyIcon /> Copy Markdown
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
