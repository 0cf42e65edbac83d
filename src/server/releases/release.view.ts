import type { ReleaseHealth, ReleaseListItem } from "../../shared/release.views";
import type { ReleaseFigures, ReleaseListRow } from "./release-list.queries";

const NO_HEALTH: ReleaseHealth = { sessions: 0, crashFreeSessions: null, crashFreeUsers: null, adoption: null };
const NO_FIGURES: ReleaseFigures = { newIssues: 0, events: 0, firstEvent: null, lastEvent: null, deploys: 0, commitCount: 0 };

/** A release row with its figures, health and daily sessions as the list (REST and tRPC) answers it. */
export function toReleaseListItem(
  row: ReleaseListRow,
  figures: ReleaseFigures | undefined,
  health: ReleaseHealth | undefined,
  sessionsByDay: number[],
): ReleaseListItem {
  const counted = figures ?? NO_FIGURES;
  return {
    version: row.version,
    status: row.status,
    dateCreated: row.createdAt,
    dateReleased: row.dateReleased,
    firstEvent: counted.firstEvent,
    lastEvent: counted.lastEvent,
    newIssues: counted.newIssues,
    events: counted.events,
    deploys: counted.deploys,
    commitCount: counted.commitCount,
    health: health ?? NO_HEALTH,
    sessionsByDay,
  };
}
