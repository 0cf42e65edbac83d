import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { errorMessage } from "./api-error";
import { validationIssuesOf } from "./trpc";

/** A failed tRPC call as the client decodes it from the wire (`{ error: { message, code, data } }`). */
function trpcFailure(message: string, data: Record<string, unknown>) {
  return TRPCClientError.from({ error: { message, code: -32600, data } });
}

describe("reading validation errors from tRPC", () => {
  const issues = [
    { path: "name", message: "Name is required" },
    { path: "platform", message: "Pick a platform" },
  ];

  it("shows the issue messages of a VALIDATION_ERROR, not the joined technical message", () => {
    const error = trpcFailure("name: Name is required; platform: Pick a platform", {
      code: "BAD_REQUEST",
      httpStatus: 400,
      appCode: "VALIDATION_ERROR",
      details: { issues },
    });
    expect(validationIssuesOf(error)).toEqual(issues);
    expect(errorMessage(error)).toBe("Name is required. Pick a platform");
  });

  it("keeps the server's message for every other failure", () => {
    const error = trpcFailure("Upgrade to plus to use the chat", {
      code: "PAYMENT_REQUIRED",
      httpStatus: 402,
      appCode: "PAYMENT_REQUIRED",
      details: { plan: "plus" },
    });
    expect(validationIssuesOf(error)).toEqual([]);
    expect(errorMessage(error)).toBe("Upgrade to plus to use the chat");
  });
});
