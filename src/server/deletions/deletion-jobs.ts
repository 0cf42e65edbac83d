import type { Db } from "../db/client";
import type { JobHandlers } from "../jobs/job-registry";
import type { Logger } from "../logger";
import { deletionGivenUp, runDeletion } from "./deletion-run";

/** Rows per statement: each a short transaction of a few milliseconds even on the largest table. */
export const DELETION_BATCH_SIZE = 2000;

/**
 * A deletion's job outlasts a database outage of hours, not the queue's default few tries: given
 * up, it leaves its target hidden and half deleted until someone asks again (2 s doubling to the
 * queue's 5-minute cap: about 2.8 hours of retries).
 */
export const DELETION_JOB_ATTEMPTS = 40;

/** The deletion job's handler, for the app's job queue. */
export function deletionJobHandlers(deps: { db: Db; logger: Logger; projectDeleted: (projectId: string) => void }): Pick<JobHandlers, "deletion.run"> {
  return {
    "deletion.run": async (payload, attempt) => {
      try {
        await runDeletion({ ...deps, batchSize: DELETION_BATCH_SIZE }, payload);
      } catch (error) {
        // The queue gives the job up after this try: the deletion says it failed instead of running for ever.
        if (attempt.last) await deletionGivenUp(deps.db, payload.deletionId, error);
        throw error;
      }
    },
  };
}
