import { useNavigate } from "@tanstack/react-router";
import { Trash2Icon } from "lucide-react";
import type { IssueDetail } from "@/shared/triage.views";
import { trpc } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { cleanText } from "@/client/lib/untrusted-text";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { Button } from "@/client/components/ui/button";

/**
 * "Delete issue": the issue is gone from every list at once, and its occurrences are removed in
 * the background (organization settings list the deletion's progress).
 */
export function DeleteIssueButton({ issue }: { issue: IssueDetail }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const title = cleanText(issue.title);
  const occurrences = issue.eventCount.toLocaleString("en");
  const remove = useToastMutation(() => utils.client.deletion.deleteIssue.mutate({ projectId: issue.projectId, issueId: issue.id }), {
    success: `Issue ${title} deleted`,
    onSuccess: async () => {
      await navigate({ to: "/dashboard/issues", search: { projectId: issue.projectId } });
      await Promise.all([utils.issue.invalidate(), utils.project.overview.invalidate(), utils.deletion.list.invalidate()]);
    },
  });
  return (
    <ConfirmDialog
      title={`Delete ${title}?`}
      description={`The issue and its ${occurrences} occurrence${issue.eventCount === 1 ? "" : "s"} are removed for good. A new event with the same fingerprint starts a new issue.`}
      confirmLabel="Delete issue"
      destructive
      onConfirm={() => remove.mutateAsync(undefined)}
      testId="delete-issue-dialog"
      trigger={
        <Button variant="outline" data-testid="delete-issue">
          <Trash2Icon /> Delete issue
        </Button>
      }
    />
  );
}
