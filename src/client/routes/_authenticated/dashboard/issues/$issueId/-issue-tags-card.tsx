import type { IssueTagBreakdown } from "@/shared/triage.views";
import { formatNumber } from "@/client/lib/format";
import { cleanText } from "@/client/lib/untrusted-text";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";

const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 });

/** The top values of each tag key among the issue's events, as shares of the key's total. */
export function IssueTagsCard({ tags }: { tags: IssueTagBreakdown[] }) {
  return (
    <Card className="gap-4" data-testid="issue-tags">
      <CardHeader>
        <CardTitle>Tags</CardTitle>
        <CardDescription>Most common values among this issue's events</CardDescription>
      </CardHeader>
      <CardContent>
        {tags.length === 0 ? (
          <p className="text-sm text-muted-foreground">No tags recorded for this issue.</p>
        ) : (
          <div className="grid gap-6 sm:grid-cols-2">
            {tags.map((tag) => (
              <TagBreakdown key={tag.key} tag={tag} />
            ))}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function TagBreakdown({ tag }: { tag: IssueTagBreakdown }) {
  const shown = tag.values.reduce((sum, value) => sum + value.count, 0);
  const other = Math.max(0, tag.totalCount - shown);
  const rows = other > 0 ? [...tag.values, { value: null, count: other }] : tag.values;
  return (
    <section className="grid min-w-0 content-start gap-2" data-testid="issue-tag" data-tag-key={tag.key}>
      <h3 className="flex items-baseline justify-between gap-2 text-sm font-medium">
        <span className="truncate font-mono" title={cleanText(tag.key)}>
          {cleanText(tag.key)}
        </span>
        <span className="shrink-0 text-xs font-normal text-muted-foreground">{formatNumber(tag.totalCount)}</span>
      </h3>
      <ul className="grid gap-1.5">
        {rows.map((row) => {
          const share = tag.totalCount > 0 ? row.count / tag.totalCount : 0;
          const label = row.value === null ? "Other" : cleanText(row.value) || "(empty)";
          return (
            <li
              key={row.value ?? "\u0000other"}
              className="relative overflow-hidden rounded-md bg-muted/60 text-sm"
              title={`${label}: ${formatNumber(row.count)}`}
            >
              <div className="absolute inset-y-0 left-0 rounded-md bg-brand/20" style={{ width: `${(share * 100).toFixed(2)}%` }} aria-hidden />
              <div className="relative flex items-center justify-between gap-3 px-2 py-1">
                <span className={row.value === null ? "truncate text-muted-foreground italic" : "truncate"}>{label}</span>
                <span className="shrink-0 text-xs tabular-nums text-muted-foreground">{percent.format(share)}</span>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
