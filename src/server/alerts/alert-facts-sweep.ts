import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import type { Logger } from "../logger";
import type { AlertHandOff } from "./alert-hand-off";

export interface AlertFactsSweepOptions {
  /** How often each process looks. */
  everyMs: number;
  /** How long an issue must have waited: the usual hand-off evaluates one within seconds. */
  olderThanMs: number;
}

const DEFAULTS: AlertFactsSweepOptions = { everyMs: 60_000, olderThanMs: 60_000 };
/** Issues handed on per look; more wait for the next. */
const BATCH = 1000;

/**
 * The batch writer hands each commit's new and reopened issues to alerts from memory, right after
 * the commit: a process killed between the two would lose those alerts. The ingest statement marks
 * such issues (issues.alert_pending_since) and the evaluation clears the mark, so an issue still
 * marked a minute later was never handed over: every process looks for those once a minute (and
 * soon after it starts, when a crash is most likely behind it) and hands them on again. Two replicas
 * handing on the same issue append it to the project's one waiting evaluation, which evaluates each
 * issue once.
 */
export class AlertFactsSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private closed = false;
  private readonly options: AlertFactsSweepOptions;

  constructor(
    private readonly db: Db,
    private readonly handOff: Pick<AlertHandOff, "accept">,
    private readonly logger: Logger,
    options: Partial<AlertFactsSweepOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  start() {
    this.schedule(Math.min(this.options.everyMs, 5_000));
  }

  /** Hands on what waited too long; resolves to how many issues it handed on. */
  async sweepOnce(): Promise<number> {
    const rows = await executeRows<{ id: string; organization_id: string; project_id: string; is_regression: boolean; marked_at: string }>(
      this.db,
      sql`select id, organization_id, project_id, is_regression, alert_pending_since::text as marked_at from issues
          where alert_pending_since is not null and alert_pending_since < now() - ${`${this.options.olderThanMs} milliseconds`}::interval
          order by alert_pending_since limit ${BATCH}`,
    );
    if (rows.length === 0) return 0;
    this.logger.warn("alerts: issues never handed over after their commit, handed on now", { issues: rows.length });
    this.handOff.accept({
      issueFacts: rows.map((row) => ({
        issueId: row.id,
        organizationId: row.organization_id,
        projectId: row.project_id,
        kind: row.is_regression ? "regression" : "new",
        markedAt: row.marked_at,
      })),
      projects: [],
    });
    return rows.length;
  }

  async close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number) {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.running = this.sweepOnce()
        .catch((error: unknown) => this.logger.warn("alerts: pending-issue sweep failed", { err: error }))
        .finally(() => {
          this.running = null;
          this.schedule(this.options.everyMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
