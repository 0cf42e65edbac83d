import { formatDateTime, formatRelative } from "@/client/lib/format";

/** "5 minutes ago", with the exact time on hover and for assistive technology. */
export function RelativeTime({ date, className }: { date: Date; className?: string }) {
  return (
    <time dateTime={date.toISOString()} title={formatDateTime(date)} className={className}>
      {formatRelative(date)}
    </time>
  );
}
