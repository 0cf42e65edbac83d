import { describe, expect, it } from "vitest";
import { serialLane } from "./serial-lane";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("serialLane", () => {
  it("runs one piece at a time, in order, a failure settling only its own submitters", async () => {
    const log: string[] = [];
    let running = 0;
    const lane = serialLane<string>(async (name) => {
      running += 1;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      running -= 1;
      if (name === "b") throw new Error(name);
    });
    const results = await Promise.allSettled([lane("a"), lane("b"), lane("c")]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("merges waiting work of one key into one run, never the run already going", async () => {
    const runs: string[][] = [];
    const lane = serialLane<{ project: string; facts: string[] }>(
      async (payload) => {
        runs.push([payload.project, ...payload.facts]);
        await tick();
        if (payload.facts.includes("bad")) throw new Error("bad");
      },
      { key: (payload) => payload.project, merge: (waiting, next) => ({ ...waiting, facts: [...waiting.facts, ...next.facts] }) },
    );
    const submitted = [
      lane({ project: "p", facts: ["1"] }),
      lane({ project: "p", facts: ["2"] }),
      lane({ project: "q", facts: ["3"] }),
      lane({ project: "p", facts: ["bad"] }),
    ];
    const results = await Promise.allSettled(submitted);
    expect(runs).toEqual([
      ["p", "1"],
      ["p", "2", "bad"],
      ["q", "3"],
    ]);
    // Both submitters merged into the failed run see its failure (the job queue retries each).
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected"]);
    // Work submitted once the lane is idle again starts a new run.
    await lane({ project: "p", facts: ["4"] });
    expect(runs.at(-1)).toEqual(["p", "4"]);
  });
});
