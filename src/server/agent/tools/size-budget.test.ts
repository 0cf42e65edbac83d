import { describe, expect, it } from "vitest";
import { fitToBudget, trimForModel } from "./size-budget";

describe("fitting tool results to the model's budget", () => {
  it("cuts long strings and keeps the end of long arrays (the crashing frame is last)", () => {
    const frames = Array.from({ length: 100 }, (_, index) => ({ function: `f${index}` }));
    const trimmed = trimForModel({ message: "m".repeat(5_000), frames }) as { message: string; frames: unknown[] };
    expect(trimmed.message).toMatch(/^m{2000}… \[3000 more characters\]$/);
    expect(trimmed.frames[0]).toBe("[70 earlier items left out]");
    expect(trimmed.frames.at(-1)).toEqual({ function: "f99" });
  });

  it("shrinks until the JSON fits", () => {
    const event = { breadcrumbs: Array.from({ length: 200 }, (_, index) => ({ message: `crumb ${index} ${"z".repeat(500)}` })) };
    expect(JSON.stringify(fitToBudget(event, 16_000)).length).toBeLessThanOrEqual(16_000);
  });
});
