import type { StepResult, ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { answerTokenCapReached } from "./answer-token-cap";

const step = (inputTokens: number, outputTokens: number) => ({ usage: { inputTokens, outputTokens } }) as unknown as StepResult<ToolSet>;

describe("answerTokenCapReached", () => {
  it("goes on while the next step, at least as large as the last, still fits the cap", () => {
    const reached = answerTokenCapReached(1_000);
    expect(reached({ steps: [step(100, 20)] })).toBe(false);
    // 840 spent + a step of 120 = 960: one more fits.
    expect(reached({ steps: Array.from({ length: 7 }, () => step(100, 20)) })).toBe(false);
    // 960 spent + 120 = 1,080: stop.
    expect(reached({ steps: Array.from({ length: 8 }, () => step(100, 20)) })).toBe(true);
  });

  it("stops after a first step that alone used most of the cap", () => {
    expect(answerTokenCapReached(1_000)({ steps: [step(600, 10)] })).toBe(true);
  });

  it("counts a step without reported usage as free", () => {
    expect(answerTokenCapReached(1_000)({ steps: [{ usage: {} } as unknown as StepResult<ToolSet>] })).toBe(false);
  });
});
