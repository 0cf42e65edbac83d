import type { Mailer } from "../auth/mailer";
import type { Db } from "../db/client";
import type { Env } from "../env";
import type { JobQueue } from "../jobs/job-queue";
import type { IssueFactsPayload, JobHandlers, ProjectRef } from "../jobs/job-registry";
import { serialLane } from "../jobs/serial-lane";
import type { Logger } from "../logger";
import { parseOutboundAllow } from "../outbound/outbound-allow";
import { createOutboundHttp, type OutboundHttp } from "../outbound/outbound-http";
import type { SecretBox } from "../secrets/secret-box";
import { deliverNotification, type DeliveryDeps } from "./alert-delivery";
import { sendDigest } from "./alert-digest";
import { evaluateFrequency, evaluateIssueFacts } from "./alert-evaluator";
import { AlertHandOff } from "./alert-hand-off";
import { AlertFactsSweep, type AlertFactsSweepOptions } from "./alert-facts-sweep";

export interface AlertsModule {
  /** Given to the ingest batch writer (after-commit facts). */
  handOff: AlertHandOff;
  /** What delivering needs (also the "Send test" button). */
  delivery: DeliveryDeps;
  /** The handlers of the alert jobs, for the app to give its job queue with every other job's. */
  jobHandlers: Pick<JobHandlers, "alert.evaluate" | "alert.frequency" | "alert.deliver" | "alert.digest">;
  /** Waits for pending hand-offs; the job queue is closed by its owner. */
  close(): Promise<void>;
}

export interface AlertsDeps {
  env: Env;
  db: Db;
  jobs: JobQueue;
  mailer: Mailer;
  secretBox: SecretBox;
  logger: Logger;
  /** Tests pass a client with their own resolver; by default OUTBOUND_ALLOW and OUTBOUND_TIMEOUT_MS configure one. */
  outbound?: OutboundHttp;
  /** How often one process checks a busy project's spike and rate rules (default 10 s). */
  frequencyCheckMs?: number;
  /** The recovery of issues never handed over (default: once a minute, for issues marked over a minute). */
  factsSweep?: Partial<AlertFactsSweepOptions>;
}

/** Alerts: the evaluator, storm guard and delivery, running as jobs of the database queue on every replica. */
export function createAlerts(deps: AlertsDeps): AlertsModule {
  const logger = deps.logger.child({ component: "alerts" });
  const outbound =
    deps.outbound ??
    createOutboundHttp({
      allow: parseOutboundAllow(deps.env.OUTBOUND_ALLOW),
      timeoutMs: deps.env.OUTBOUND_TIMEOUT_MS,
      maxResponseBytes: 64 * 1024,
      maxRedirects: 3,
    });
  const delivery: DeliveryDeps = { db: deps.db, mailer: deps.mailer, outbound, secretBox: deps.secretBox, logger, apiUrl: deps.env.API_URL };
  const evaluator = { db: deps.db, jobs: deps.jobs, logger };
  const handOff = new AlertHandOff(deps.jobs, logger, deps.frequencyCheckMs ?? 10_000);
  // Evaluations lock storm-guard rows: each kind runs one at a time per process, so claimed jobs
  // wait here and not on the database's locks; a backlog of one project's facts is evaluated as one.
  const evaluateFacts = serialLane((payload: IssueFactsPayload) => evaluateIssueFacts(evaluator, payload), {
    key: (payload) => payload.projectId,
    merge: (waiting, next) => ({ ...waiting, facts: [...waiting.facts, ...next.facts] }),
  });
  const checkFrequency = serialLane((payload: ProjectRef) => evaluateFrequency(evaluator, payload), {
    key: (payload) => payload.projectId,
    merge: (waiting) => waiting,
  });
  const jobHandlers: AlertsModule["jobHandlers"] = {
    "alert.evaluate": evaluateFacts,
    "alert.frequency": checkFrequency,
    "alert.deliver": (payload) => deliverNotification(delivery, payload.notificationId),
    "alert.digest": (payload) => sendDigest(deps.db, deps.jobs, payload),
  };
  // Finds issues a stopped process committed but never handed over (alert-facts-sweep.ts).
  const sweep = new AlertFactsSweep(deps.db, handOff, logger, deps.factsSweep);
  sweep.start();
  return {
    handOff,
    delivery,
    jobHandlers,
    close: async () => {
      await sweep.close();
      await handOff.flush();
    },
  };
}
