import { describe, expect, it } from "vitest";
import { oneAtATime } from "./one-at-a-time";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("oneAtATime", () => {
  it("starts each task after the one before has settled, in order, failures included", async () => {
    const serially = oneAtATime();
    const log: string[] = [];
    let running = 0;
    const task =
      (name: string, fail = false) =>
      async () => {
        running += 1;
        expect(running).toBe(1);
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        running -= 1;
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([serially(task("a")), serially(task("b", true)), serially(task("c"))]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[2] as PromiseFulfilledResult<string>).value).toBe("c");
  });
});
