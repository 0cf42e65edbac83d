import { Histogram, LabeledCounter, MetricRegistry, SimpleCounter } from "./metric-registry";

/**
 * What the ingest path and the job queue count as they go, process-wide (one process, one set of
 * counters, however many apps a test builds in it). Each instrumentation point is one call to a
 * function below: a number added, nothing allocated per event.
 */
export const processMetrics = new MetricRegistry();

const accepted = processMetrics.register(new SimpleCounter("faultline_ingest_accepted_events_total", "Events committed to the database."));

const refused = processMetrics.register(
  new LabeledCounter("faultline_ingest_refused_events_total", "Events refused (answered without storing), by outcome and reason.", ["outcome", "reason"]),
);

const clientDiscards = processMetrics.register(
  new SimpleCounter("faultline_ingest_client_discarded_events_total", "Events SDKs reported they dropped before sending (client reports)."),
);

const batchSize = processMetrics.register(
  new Histogram("faultline_ingest_batch_size", "Items per ingest commit (group commit).", [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000]),
);

const commitSeconds = processMetrics.register(
  new Histogram(
    "faultline_ingest_commit_seconds",
    "Time to commit one ingest batch, isolation retries included.",
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  ),
);

const jobFailures = processMetrics.register(
  new LabeledCounter("faultline_job_failures_total", "Background job runs that threw, by job and what followed (retry or given_up).", ["job", "outcome"]),
);

export function countAccepted(events: number) {
  accepted.inc(events);
}

/**
 * A refusal as ingest.service.ts records its outcome. Reasons that carry client text after a colon
 * (`unsupported:<item type>`, `item:<item type>`) are cut to their fixed part, so a client cannot
 * mint label values; client discards are the SDK's own count, kept apart.
 */
export function countRefused(outcome: string, reason: string, quantity: number) {
  if (outcome === "accepted") return;
  if (outcome === "client_discard") return clientDiscards.inc(quantity);
  const colon = reason.indexOf(":");
  refused.child(outcome, colon < 0 ? reason : reason.slice(0, colon)).inc(quantity);
}

/** A request refused before its project or its events are known (an unknown key), counted as one; answers the error to throw. */
export function countedRefusal<T extends { code: string }>(error: T): T {
  refused.child("unauthorized", error.code).inc();
  return error;
}

export function observeCommit(items: number, milliseconds: number) {
  if (items === 0) return;
  batchSize.observe(items);
  commitSeconds.observe(milliseconds / 1000);
}

export function countJobFailure(job: string, givenUp: boolean) {
  jobFailures.child(job, givenUp ? "given_up" : "retry").inc();
}
