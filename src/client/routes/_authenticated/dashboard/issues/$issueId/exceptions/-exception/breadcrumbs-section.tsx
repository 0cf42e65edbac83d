import { useState } from "react";
import { displayValue } from "@/client/lib/untrusted-text";
import { UntrustedText } from "@/client/components/untrusted-text";
import { LevelBadge } from "@/client/components/issue-badges";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import type { BreadcrumbView } from "@/shared/occurrence-view";

const INITIAL_CRUMBS = 30;
const timeOfDay = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit", fractionalSecondDigits: 3, hour12: false });

function crumbTime(timestamp: string | null): string {
  if (!timestamp) return "";
  // SDKs send ISO strings or epoch seconds.
  const date = /^\d+(\.\d+)?$/.test(timestamp) ? new Date(Number(timestamp) * 1000) : new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : timeOfDay.format(date);
}

/** What happened before the error, oldest first; the latest ones are shown when there are many. */
export function BreadcrumbsSection({ breadcrumbs }: { breadcrumbs: BreadcrumbView[] }) {
  const [showAll, setShowAll] = useState(false);
  const hidden = showAll ? 0 : Math.max(0, breadcrumbs.length - INITIAL_CRUMBS);
  const shown = breadcrumbs.slice(hidden);
  return (
    <Card className="gap-4" data-testid="exception-breadcrumbs">
      <CardHeader>
        <CardTitle>Breadcrumbs</CardTitle>
        <CardDescription>{breadcrumbs.length ? `${breadcrumbs.length} recorded, oldest first` : "None recorded"}</CardDescription>
      </CardHeader>
      {breadcrumbs.length ? (
        <CardContent className="grid gap-2">
          {hidden > 0 ? (
            <Button variant="ghost" size="sm" className="justify-self-start" onClick={() => setShowAll(true)}>
              Show {hidden} earlier
            </Button>
          ) : null}
          <ol className="relative grid gap-3 border-l pl-4">
            {shown.map((crumb, index) => (
              <li key={index} className="relative grid gap-1 text-sm" data-testid="breadcrumb">
                <span className="absolute top-1.5 -left-[1.3rem] size-2 rounded-full bg-muted-foreground/60" aria-hidden />
                <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                  <span className="font-mono tabular-nums">{crumbTime(crumb.timestamp)}</span>
                  {crumb.level ? <LevelBadge level={crumb.level} /> : null}
                  {crumb.category ? (
                    <span className="font-mono">
                      <UntrustedText value={crumb.category} maxLength={100} />
                    </span>
                  ) : null}
                  {crumb.type && crumb.type !== "default" ? (
                    <span>
                      <UntrustedText value={crumb.type} maxLength={50} />
                    </span>
                  ) : null}
                </div>
                {crumb.message ? <UntrustedText value={crumb.message} maxLength={500} /> : null}
                {crumb.data !== null && crumb.data !== undefined ? (
                  <code className="font-mono text-xs text-muted-foreground">
                    <UntrustedText value={displayValue(crumb.data)} maxLength={300} />
                  </code>
                ) : null}
              </li>
            ))}
          </ol>
        </CardContent>
      ) : null}
    </Card>
  );
}
