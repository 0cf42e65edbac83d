import { readdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../logger";
import { IngestError } from "../http/ingest-error";
import { envelopeOf, loadPayload, PAYLOADS_DIR } from "../../../../test/helpers/sdk-payloads";
import { PayloadWorkers } from "./payload-workers";
import { readyPayload, type PrepareInput } from "./ready-payload";

const CONTEXT = { organizationId: "org_payload_workers", projectId: "0b7e1f52-8a52-4c36-9a43-6f1b1d1c2e01", legacyGrouping: true };
const RECEIVED_AT = new Date("2026-11-27T12:00:00.000Z");

/** Every public SDK payload of the fixtures, as the envelope an SDK would send (with an event id: a missing one is made up at random). */
const inputs: PrepareInput[] = readdirSync(PAYLOADS_DIR)
  .filter((file) => file.endsWith(".json"))
  .map((file) => ({
    endpoint: "envelope",
    body: Buffer.from(envelopeOf({ event_id: Buffer.from(file).toString("hex").padEnd(32, "0").slice(0, 32), ...loadPayload(file) })),
    options: { receivedAt: RECEIVED_AT, connectionIp: "127.0.0.1" },
    context: CONTEXT,
  }));

/** A worker entry that stops its thread on the first body it is given, answering nothing. */
const STOPPING_ENTRY = `data:text/javascript,${encodeURIComponent(
  `import { parentPort } from "node:worker_threads"; parentPort.on("message", () => process.exit(3)); parentPort.postMessage({ ready: true });`,
)}`;

let pool: PayloadWorkers | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

async function readyPool(entry?: string, shareAt = Number.POSITIVE_INFINITY) {
  pool = new PayloadWorkers(1, createLogger("silent"), entry, shareAt);
  // Workers start on first use; until one is ready, bodies are prepared inline.
  expect(await pool.prepare(inputs[0])).toEqual(readyPayload(inputs[0]));
  expect(pool.workerAnswers).toBe(0);
  await pool.whenReady();
  expect(pool.readyWorkers).toBe(1);
  return pool;
}

describe("payload workers", () => {
  it("prepare on a worker thread exactly what the main thread prepares inline", { timeout: 60_000 }, async () => {
    expect(inputs.length).toBeGreaterThanOrEqual(10);
    const workers = await readyPool();
    const before = workers.workerAnswers;
    const onWorker = await Promise.all(inputs.map((input) => workers.prepare(input)));
    expect(workers.workerAnswers - before).toBe(inputs.length);
    expect(onWorker).toEqual(inputs.map((input) => readyPayload(input)));
    expect(onWorker.every((payload) => payload.events.length === 1)).toBe(true);
  });

  it("refuse a bad body with the IngestError the main thread would throw", { timeout: 60_000 }, async () => {
    const workers = await readyPool();
    const bad: PrepareInput = { ...inputs[0], body: Buffer.from('{"event_id":"0123456789abcdef0123456789abcdef"}\n{"type":"event"}\n{not json\n') };
    const inline = (() => {
      try {
        readyPayload(bad);
      } catch (error) {
        return error as IngestError;
      }
    })();
    expect(inline).toBeInstanceOf(IngestError);
    const fromWorker = await workers.prepare(bad).catch((error: unknown) => error);
    expect(fromWorker).toBeInstanceOf(IngestError);
    expect(fromWorker).toMatchObject({ code: inline!.code, status: 400, message: inline!.message });
  });

  it("share a burst with the main thread: past shareAt bodies held, the next is prepared inline", { timeout: 60_000 }, async () => {
    const workers = await readyPool(undefined, 3);
    const before = workers.workerAnswers;
    // The whole burst is handed out before any answer can come back: three to the worker, the rest inline.
    const answers = await Promise.all(inputs.map((input) => workers.prepare(input)));
    expect(workers.workerAnswers - before).toBe(3);
    expect(answers).toEqual(inputs.map((input) => readyPayload(input)));
    // Once the worker has answered, it takes bodies again.
    await workers.prepare(inputs[1]);
    expect(workers.workerAnswers - before).toBe(4);
  });

  it("lose no body when a worker stops: what it held is prepared inline", { timeout: 60_000 }, async () => {
    const workers = await readyPool(STOPPING_ENTRY);
    const answers = await Promise.all(inputs.slice(0, 5).map((input) => workers.prepare(input)));
    expect(answers).toEqual(inputs.slice(0, 5).map((input) => readyPayload(input)));
    expect(workers.workerAnswers).toBe(0);
  });
});
