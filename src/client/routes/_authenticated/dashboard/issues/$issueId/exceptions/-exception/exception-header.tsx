import type { ExceptionDetail } from "@/shared/triage.views";
import { formatDateTime } from "@/client/lib/format";
import { cleanText } from "@/client/lib/untrusted-text";
import { useDocumentTitle } from "@/client/lib/use-document-title";
import { exceptionSummary } from "@/client/components/exceptions-table";
import { CopyButton } from "@/client/components/copy-button";
import { LevelBadge } from "@/client/components/issue-badges";
import { RelativeTime } from "@/client/components/relative-time";
import { UntrustedText } from "@/client/components/untrusted-text";
import { Badge } from "@/client/components/ui/badge";
import { ENVIRONMENT_LABELS } from "@/shared/environments";
import type { OccurrenceView } from "@/shared/occurrence-view";

const ADJUSTMENTS: Record<string, string> = {
  past_timestamp: "older than 30 days: stored at the time it was received",
  future_timestamp: "ahead of the server's clock: stored at the time it was received",
  clock_drift: "corrected for the device's clock drift",
};

/** What was thrown, when, where and by which release. */
export function ExceptionHeader({ exception, occurrence }: { exception: ExceptionDetail; occurrence: OccurrenceView }) {
  useDocumentTitle(`Exception ${exception.eventId.slice(0, 8)}`);
  const facts: [string, string | null][] = [
    // No environment sent: said so, with the bucket it counts in (the SDKs' default, production).
    ["Environment", exception.environmentName ?? `None (counted as ${ENVIRONMENT_LABELS[exception.environment] ?? exception.environment})`],
    ["Location", occurrence.location],
    ["Release", exception.release],
    ["Platform", exception.platform],
    ["Server", occurrence.serverName],
    ["Transaction", occurrence.transaction],
    ["Logger", occurrence.logger],
  ];
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <LevelBadge level={exception.level} />
        {occurrence.handled === false ? (
          <Badge variant="outline" className="border-transparent bg-red-500/15 text-red-700 dark:text-red-400">
            Unhandled
          </Badge>
        ) : null}
        <span className="flex items-center gap-1 font-mono text-xs text-muted-foreground">
          Event <span data-testid="exception-event-id">{exception.eventId}</span>
          <CopyButton value={exception.eventId} label="event id" />
        </span>
      </div>
      <h1 className="text-2xl font-semibold tracking-tight break-words [overflow-wrap:anywhere]" data-testid="exception-title">
        <UntrustedText value={exceptionSummary(exception)} maxLength={300} />
      </h1>
      {occurrence.message && occurrence.message !== exception.message ? (
        <p className="text-sm" data-testid="exception-message">
          <UntrustedText value={occurrence.message} maxLength={2000} />
        </p>
      ) : null}
      <dl className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
        <div className="grid gap-0.5">
          <dt className="text-xs text-muted-foreground">Time</dt>
          <dd>
            <RelativeTime date={exception.timestamp} /> <span className="text-xs text-muted-foreground">({formatDateTime(exception.timestamp)})</span>
            {occurrence.originalTimestamp ? (
              <span className="block text-xs text-muted-foreground" data-testid="exception-original-time">
                Sent as {formatDateTime(new Date(occurrence.originalTimestamp))}
                {occurrence.timestampAdjustment && ADJUSTMENTS[occurrence.timestampAdjustment] ? ` — ${ADJUSTMENTS[occurrence.timestampAdjustment]}` : ""}
              </span>
            ) : null}
          </dd>
        </div>
        {facts
          .filter((fact): fact is [string, string] => Boolean(fact[1]))
          .map(([label, value]) => (
            <div key={label} className="grid max-w-80 min-w-0 gap-0.5">
              <dt className="text-xs text-muted-foreground">{label}</dt>
              <dd className="truncate font-mono text-xs leading-5" title={cleanText(value)}>
                {cleanText(value)}
              </dd>
            </div>
          ))}
      </dl>
    </div>
  );
}
