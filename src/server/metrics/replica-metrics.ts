import type { ReadReplica } from "../db/read-replica";
import { CollectedMetric, type MetricRegistry } from "./metric-registry";

/**
 * The read replica's health as its poll last saw it (db/read-replica.ts, every 2 s): no query at
 * scrape time. Lag is absent while it cannot be told (the standby is down or not a standby).
 */
export function registerReplicaMetrics(registry: MetricRegistry, replica: ReadReplica) {
  registry.register(
    new CollectedMetric("faultline_replica_up", "Whether the read replica answered its last lag poll (1) or not (0).", "gauge", () => [
      { value: replica.state().up ? 1 : 0 },
    ]),
  );
  registry.register(
    new CollectedMetric("faultline_replica_lag_seconds", "How far the read replica's replay is behind the primary, at its last poll.", "gauge", () => {
      const { lagSeconds } = replica.state();
      return lagSeconds === null ? [] : [{ value: lagSeconds }];
    }),
  );
  registry.register(
    new CollectedMetric(
      "faultline_replica_in_use",
      "Whether lag-tolerant reads go to the read replica (1) or to the primary (0: the replica is down or lags past READ_REPLICA_MAX_LAG_SECONDS).",
      "gauge",
      () => [{ value: replica.state().inUse ? 1 : 0 }],
    ),
  );
  registry.register(
    new CollectedMetric("faultline_replica_max_lag_seconds", "READ_REPLICA_MAX_LAG_SECONDS: the lag past which reads leave the read replica.", "gauge", () => [
      { value: replica.maxLagSeconds },
    ]),
  );
  registry.register(
    new CollectedMetric(
      "faultline_replica_reads_retried_total",
      "Reads the read replica failed (connection lost, shutting down, conflict with recovery) and the primary answered.",
      "counter",
      () => [{ value: replica.retriedOnPrimary() }],
    ),
  );
}
