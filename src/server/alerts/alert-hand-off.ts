import type { CommittedFacts } from "../ingest/store/batch-writer";
import type { JobQueue } from "../jobs/job-queue";
import type { IssueFactsPayload } from "../jobs/job-registry";
import type { Logger } from "../logger";

/** How long a project's issue facts gather before they are evaluated (what an alert may wait for a burst). */
const FACTS_GATHER_MS = 1000;

/**
 * The batch writer's hand-off: it never blocks ingest. Issues a committed batch created or
 * regressed go to the project's waiting "alert.evaluate" job (rare: most batches add to known
 * issues): the job runs FACTS_GATHER_MS after the first of them, with every fact handed on until
 * then appended to it, so a burst of new issues is evaluated a few times, not once per batch.
 * Projects whose per-minute counts were just written (about once a second, beside the batches)
 * get an "alert.frequency" check at most once per `frequencyCheckMs` per process — one
 * waiting job per project (singleton key) across replicas — so a flood of 5,000 events costs a
 * handful of checks, not 5,000. Pending enqueues are awaited on close.
 */
export class AlertHandOff {
  private readonly lastCheck = new Map<string, number>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly jobs: JobQueue,
    private readonly logger: Logger,
    private readonly frequencyCheckMs: number,
  ) {}

  accept(facts: CommittedFacts) {
    const byProject = new Map<string, IssueFactsPayload>();
    for (const fact of facts.issueFacts) {
      const payload = byProject.get(fact.projectId) ?? { organizationId: fact.organizationId, projectId: fact.projectId, facts: [] };
      payload.facts.push({ issueId: fact.issueId, kind: fact.kind, markedAt: fact.markedAt });
      byProject.set(fact.projectId, payload);
    }
    const due = new Date(Date.now() + FACTS_GATHER_MS);
    for (const payload of byProject.values())
      this.track(this.jobs.enqueue("alert.evaluate", payload, { singletonKey: payload.projectId, appendTo: "facts", startAfter: due }));
    const now = Date.now();
    for (const pair of facts.projects) {
      if (now - (this.lastCheck.get(pair) ?? 0) < this.frequencyCheckMs) continue;
      this.lastCheck.set(pair, now);
      const [organizationId, projectId] = pair.split(" ");
      this.track(this.jobs.enqueue("alert.frequency", { organizationId, projectId }, { singletonKey: projectId }));
    }
    if (this.lastCheck.size > 10_000) this.lastCheck.clear();
  }

  private track(enqueue: Promise<unknown>) {
    const tracked = enqueue.catch((error: unknown) => this.logger.warn("alert hand-off failed", { err: error })).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Waits for hand-offs still being written (graceful shutdown: after ingest's last commit). */
  async flush() {
    await Promise.all([...this.pending]);
  }
}
