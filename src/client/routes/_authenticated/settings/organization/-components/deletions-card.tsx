import { trpc } from "@/client/lib/trpc";
import { formatRelative } from "@/client/lib/format";
import { cleanText } from "@/client/lib/untrusted-text";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Badge } from "@/client/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";
import type { DeletionView } from "@/shared/deletion.views";

const KIND_LABELS: Record<DeletionView["kind"], string> = { issue: "Issue", project: "Project", organization: "Organization", user_data: "Person's data" };
/** Polled this often while a deletion is pending or running. */
const POLL_MS = 1000;

const running = (deletions: DeletionView[] | undefined) =>
  deletions?.some((deletion) => deletion.status === "pending" || deletion.status === "running") ?? false;

/** What was deleted, by whom, and how far each deletion got: the audit, refreshed while one runs. */
export function DeletionsCard() {
  const deletions = trpc.deletion.list.useQuery(undefined, { refetchInterval: (query) => (running(query.state.data) ? POLL_MS : false) });
  return (
    <Card id="deletions" data-testid="deletions-card" className="scroll-mt-20">
      <CardHeader>
        <CardTitle>Deletions</CardTitle>
        <CardDescription>
          Issues, projects and people's data deleted in this organization. Each is hidden at once and removed in the background.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {deletions.error ? <QueryErrorAlert error={deletions.error} onRetry={() => void deletions.refetch()} /> : null}
        {deletions.data && deletions.data.length === 0 ? <p className="text-sm text-muted-foreground">Nothing deleted yet.</p> : null}
        {deletions.data && deletions.data.length > 0 ? (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>What</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Progress</TableHead>
                <TableHead>Asked</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {deletions.data.map((deletion) => (
                <TableRow key={deletion.id} data-testid="deletion-row" data-status={deletion.status}>
                  <TableCell>
                    {KIND_LABELS[deletion.kind]}
                    {deletion.targetName ? `: ${cleanText(deletion.targetName)}` : ""}
                  </TableCell>
                  <TableCell>
                    <Badge variant={deletion.status === "failed" ? "destructive" : "secondary"} data-testid="deletion-status">
                      {deletion.status}
                    </Badge>
                  </TableCell>
                  <TableCell data-testid="deletion-progress">
                    {deletion.kind === "user_data"
                      ? `${deletion.done.toLocaleString("en")} removed`
                      : `${deletion.done.toLocaleString("en")} / ${deletion.total.toLocaleString("en")}`}
                  </TableCell>
                  <TableCell>{formatRelative(deletion.createdAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
      </CardContent>
    </Card>
  );
}
