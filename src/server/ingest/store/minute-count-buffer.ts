import { CountBuffer } from "./count-buffer";

/** One (issue, minute) counter increment for issue_minute_counts. */
export interface MinuteCountRow {
  organization_id: string;
  project_id: string;
  issue_id: string;
  /** The start of the minute the events were received in (ISO text). */
  minute: string;
  count: number;
}

let lastMinute = { start: Number.NaN, text: "" };

/**
 * The minute an event received at `receivedAt` counts in, as issue_minute_counts keys it. Every
 * event asks, and nearly all of them ask about the minute the previous one did: that one's text is kept.
 */
export function minuteOf(receivedAt: Date): string {
  const start = Math.floor(receivedAt.getTime() / 60_000) * 60_000;
  if (start !== lastMinute.start) lastMinute = { start, text: new Date(start).toISOString() };
  return lastMinute.text;
}

/**
 * Events per issue and minute, for the spike and event-rate alert rules (alerts/alert-evaluator.ts),
 * summed in memory and written beside the batches with the tag counts. In each batch statement they
 * were one more row update per issue and batch; summed over a second, one per issue. The trade-off
 * is the tag counts' (tag-count-buffer.ts): a crash can lose the last second of them, and the
 * frequency checks run after they are written (the batch writer hands the projects on then), so a
 * rule sees every count it is evaluated on.
 */
export class MinuteCountBuffer extends CountBuffer<MinuteCountRow> {
  constructor(flushMs: number, maxRows?: number, now?: () => number) {
    super((row) => `${row.issue_id} ${row.minute}`, flushMs, maxRows, now);
  }

  add(organizationId: string, projectId: string, issueId: string, minute: string, count = 1) {
    this.addRow({ organization_id: organizationId, project_id: projectId, issue_id: issueId, minute, count });
  }
}
