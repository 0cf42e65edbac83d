import { Link } from "@tanstack/react-router";
import type { ExceptionListItem } from "@/shared/triage.views";
import { cleanText } from "@/client/lib/untrusted-text";
import { ENVIRONMENT_LABELS } from "@/shared/environments";
import { RelativeTime } from "./relative-time";
import { LINKED_ROW, ROW_LINK } from "./row-link";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "./ui/table";

/** "TypeError: x is undefined", or whichever half the SDK sent. */
export function exceptionSummary(exception: Pick<ExceptionListItem, "name" | "message">): string {
  const name = exception.name ? cleanText(exception.name) : "";
  const message = exception.message ? cleanText(exception.message) : "";
  if (name && message) return `${name}: ${message}`;
  return name || message || "(no message)";
}

/** Occurrences of one issue (or of a whole project), each row linking to its detail. */
export function ExceptionsTable({
  exceptions,
  projectId,
  testId = "exceptions-table",
}: {
  exceptions: ExceptionListItem[];
  projectId: string;
  testId?: string;
}) {
  return (
    <Table data-testid={testId} className="table-fixed">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead className="w-28 pl-4">Event</TableHead>
          <TableHead className="w-32">Time</TableHead>
          <TableHead className="hidden w-32 md:table-cell">Environment</TableHead>
          <TableHead className="hidden w-40 lg:table-cell">Release</TableHead>
          <TableHead className="pr-4">Message</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {exceptions.map((exception) => (
          <TableRow key={exception.id} className={LINKED_ROW} data-testid="exception-row" data-exception-id={exception.id}>
            <TableCell className="pl-4">
              <Link
                to="/dashboard/issues/$issueId/exceptions/$exceptionId"
                params={{ issueId: exception.issueId, exceptionId: exception.id }}
                search={{ projectId }}
                className={`font-mono text-xs hover:underline ${ROW_LINK}`}
                title={exception.eventId}
                data-testid="exception-link"
              >
                {exception.eventId.slice(0, 8)}
              </Link>
            </TableCell>
            <TableCell className="whitespace-nowrap text-muted-foreground">
              <RelativeTime date={exception.timestamp} />
            </TableCell>
            <TableCell className="hidden truncate md:table-cell" title={exception.environmentName ? cleanText(exception.environmentName) : undefined}>
              {exception.environmentName ? cleanText(exception.environmentName) : ENVIRONMENT_LABELS[exception.environment]}
            </TableCell>
            <TableCell className="hidden truncate font-mono text-xs lg:table-cell" title={exception.release ? cleanText(exception.release) : undefined}>
              {exception.release ? cleanText(exception.release) : <span className="text-muted-foreground">—</span>}
            </TableCell>
            <TableCell className="truncate pr-4" title={exceptionSummary(exception)}>
              {exceptionSummary(exception)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
