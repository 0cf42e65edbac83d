import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, APP_ERROR_STATUS, errorBody, validationError } from "./errors";

describe("validationError", () => {
  it("turns every zod issue into { path, message } with dotted paths, and names them in the message", () => {
    const result = z.object({ name: z.string().min(2, "Too short"), items: z.array(z.number()) }).safeParse({ name: "x", items: [1, "two"] });
    if (result.success) throw new Error("expected a failure");
    const error = validationError(result.error);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.details).toEqual({
      issues: [
        { path: "name", message: "Too short" },
        { path: "items.1", message: "Invalid input: expected number, received string" },
      ],
    });
    expect(error.message).toBe("name: Too short; items.1: Invalid input: expected number, received string");
  });

  it("names a failure of the whole input 'body' and survives symbol keys", () => {
    const root = z.object({}).safeParse("text");
    if (root.success) throw new Error("expected a failure");
    expect(validationError(root.error).message).toMatch(/^body: /);
    const key = Symbol("k");
    const custom = z.any().superRefine((_value, ctx) => ctx.addIssue({ code: "custom", message: "bad", path: [key, 0] }));
    const result = custom.safeParse(1);
    if (result.success) throw new Error("expected a failure");
    expect(validationError(result.error).details).toEqual({ issues: [{ path: "Symbol(k).0", message: "bad" }] });
  });
});

describe("APP_ERROR_STATUS", () => {
  it("answers 402 for a missing plan and 502/503 for upstream failures", () => {
    expect(APP_ERROR_STATUS.PAYMENT_REQUIRED).toBe(402);
    expect(APP_ERROR_STATUS.BAD_GATEWAY).toBe(502);
    expect(APP_ERROR_STATUS.SERVICE_UNAVAILABLE).toBe(503);
    expect(APP_ERROR_STATUS.VALIDATION_ERROR).toBe(400);
  });

  it("serialises details only when there are some", () => {
    expect(errorBody(new AppError("PAYMENT_REQUIRED", "Upgrade to plus", { plan: "plus" }))).toEqual({
      code: "PAYMENT_REQUIRED",
      message: "Upgrade to plus",
      details: { plan: "plus" },
    });
    expect(errorBody(new AppError("BAD_GATEWAY", "The model provider failed"))).toEqual({ code: "BAD_GATEWAY", message: "The model provider failed" });
  });
});
