import { z } from "zod";

/** A JSON value: what a job payload may hold, so it survives the round trip through the database. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Job names and the schema of the payload each carries: what a queue is typed by. */
export type JobSchemas = Record<string, z.ZodType<JsonValue>>;

/** One handler per job name, each given its payload as the registry's schema parsed it. */
export type JobHandlers<Schemas extends JobSchemas = AppJobs> = {
  [Name in keyof Schemas]: (payload: z.output<Schemas[Name]>, attempt: JobAttempt) => Promise<void>;
};

/** Which try a handler runs: on the last one a failure gives the job up (a handler may record that). */
export interface JobAttempt {
  last: boolean;
}

const IssueFact = z.object({
  issueId: z.string(),
  kind: z.enum(["new", "regression"]),
  /** The issue's alert mark the fact is about (absent in jobs queued before marks existed). */
  markedAt: z.string().optional(),
});

/** "alert.evaluate": issues a committed batch created or regressed, gathered per project. */
export const IssueFactsPayload = z.object({ organizationId: z.string(), projectId: z.string(), facts: z.array(IssueFact) });
export type IssueFactsPayload = z.infer<typeof IssueFactsPayload>;

/** The project a frequency check is for. */
export const ProjectRef = z.object({ organizationId: z.string(), projectId: z.string() });
export type ProjectRef = z.infer<typeof ProjectRef>;

/**
 * Every background job of the app, by the name its rows carry. A job added here cannot be enqueued
 * with the wrong payload (`JobQueue.enqueue` takes the payload type from the name), and the app
 * does not compile until a handler is given for it (`JobQueue.work` takes `JobHandlers`, one per
 * name). The worker parses each stored payload with its schema before the handler sees it, so the
 * schemas must keep accepting rows already queued by an older version: widen them, never narrow.
 */
export const JOBS = {
  "alert.evaluate": IssueFactsPayload,
  "alert.frequency": ProjectRef,
  "alert.deliver": z.object({ notificationId: z.string() }),
  /** A rule's digest of held alerts; `hour` only in jobs queued by the hourly digest this replaced (alerts/alert-digest.ts). */
  "alert.digest": z.object({ ruleId: z.string(), hour: z.string().optional() }),
  /** An artifact bundle whose chunks are all uploaded (sourcemaps/artifact-assembly.ts); its request is in `artifact_assemblies`. */
  "sourcemaps.assemble": z.object({ organizationId: z.string(), checksum: z.string() }),
  /**
   * A deletion (deletions/deletion-run.ts), one job each. An erasure's identifier rides here (the
   * job row is removed when it ends), never in the audit row.
   */
  "deletion.run": z.object({
    deletionId: z.string(),
    identity: z.object({ field: z.enum(["id", "email", "ip"]), value: z.string() }).optional(),
  }),
  /** The maintenance run (retention/maintenance-jobs.ts): partitions ahead and retention; one queued at a time. */
  "maintenance.run": z.object({}),
} satisfies JobSchemas;

export type AppJobs = typeof JOBS;
export type JobName = keyof AppJobs;
export type JobPayload<Name extends JobName> = z.input<AppJobs[Name]>;
