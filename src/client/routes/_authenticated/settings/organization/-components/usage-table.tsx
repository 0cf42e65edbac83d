import type { RouterOutputs } from "@/client/lib/trpc";
import { formatNumber } from "@/client/lib/format";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";

type ProjectUsage = RouterOutputs["billing"]["usage"]["projects"][number];

/** This month's events per project, from the ingest outcomes: accepted, refused by a rate limit, refused over the quota. */
export function UsageTable({ projects }: { projects: ProjectUsage[] }) {
  if (projects.length === 0) return <p className="text-sm text-muted-foreground">No projects yet, so no events this month.</p>;
  return (
    <Table data-testid="usage-table">
      <TableHeader>
        <TableRow>
          <TableHead>Project</TableHead>
          <TableHead className="text-right">Accepted</TableHead>
          <TableHead className="text-right">Rate-limited</TableHead>
          <TableHead className="text-right">Over quota</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {projects.map((project) => (
          <TableRow key={project.projectId}>
            <TableCell className="font-medium">{project.projectName}</TableCell>
            <TableCell className="text-right tabular-nums">{formatNumber(project.accepted)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatNumber(project.rateLimited)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatNumber(project.overQuota)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
