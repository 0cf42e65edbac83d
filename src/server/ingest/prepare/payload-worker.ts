import { parentPort } from "node:worker_threads";
import { IngestError } from "../http/ingest-error";
import { readyPayload, type PrepareInput } from "./ready-payload";
import type { WorkerAnswer } from "./payload-workers";

/**
 * A payload worker thread (payload-workers.ts): prepares request bodies as they come and answers
 * each by its id. An IngestError goes back as its plain form, so the main thread answers the
 * same 400/413 it would have inline.
 */
const port = parentPort!;
port.on("message", ({ id, input }: { id: number; input: PrepareInput }) => {
  let answer: WorkerAnswer;
  try {
    answer = { id, ok: true, value: readyPayload(input) };
  } catch (error) {
    answer = {
      id,
      ok: false,
      failure: error instanceof IngestError ? error.toFailure() : null,
      message: error instanceof Error ? error.message : String(error),
    };
  }
  port.postMessage(answer);
});
port.postMessage({ ready: true });
