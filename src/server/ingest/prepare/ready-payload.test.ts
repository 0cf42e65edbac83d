import { describe, expect, it } from "vitest";
import { heavyEnvelope } from "../../../../test/helpers/heavy-envelope";
import { readyPayload, readyPayloadAsync, type PrepareInput } from "./ready-payload";

const context = { organizationId: "00000000-0000-4000-8000-000000000001", projectId: "00000000-0000-4000-8000-000000000002" };
const receivedAt = new Date("2026-11-28T00:00:00Z");
const input = (body: Buffer): PrepareInput => ({ endpoint: "envelope", body, options: { receivedAt }, context });

/** How many turns other work got (a setImmediate loop) while `work` ran. */
async function turnsDuring(work: () => Promise<unknown>) {
  let turns = 0;
  let running = true;
  const turn = () => {
    if (!running) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  await work();
  running = false;
  return turns;
}

describe("readyPayloadAsync on the main thread (issue 31: one key's large envelopes stalled every tenant)", () => {
  it("lets other requests have turns while it prepares a 19 MB envelope of 35 events, with the result readyPayload gives", async () => {
    const { body, eventIds } = heavyEnvelope();
    let ready: Awaited<ReturnType<typeof readyPayloadAsync>> | undefined;
    // It used to run the whole body in one go: ≈ 0.3–1.4 s without a turn for anyone else.
    const turns = await turnsDuring(async () => (ready = await readyPayloadAsync(input(body))));
    expect(turns).toBeGreaterThanOrEqual(5);
    expect(ready!.events.map((event) => event.rowJson.includes(event.eventKey.split(":")[1]))).toEqual(eventIds.map(() => true));
    expect(ready).toEqual(readyPayload(input(body)));
  });

  it("prepares the usual one-event envelope without waiting for a turn", async () => {
    const { body } = heavyEnvelope({ events: 1, eventBytes: 4000 });
    // Turns are taken by time only, never per step: with a slice the work fits in, none is taken.
    // (A 1 s slice, so a loaded machine cannot decide the answer: with 10 ms a cold first run
    // under CI load took a turn.)
    expect(await turnsDuring(() => readyPayloadAsync(input(body), 1000))).toBe(0);
  });
});
