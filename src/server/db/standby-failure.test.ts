import { describe, expect, it } from "vitest";
import { isStandbyFailure } from "./standby-failure";

describe("isStandbyFailure", () => {
  it("is a lost or refused connection, a standby going down or starting, or a conflict with recovery", () => {
    for (const code of ["ECONNREFUSED", "CONNECTION_CLOSED", "CONNECT_TIMEOUT", "08006", "57P01", "57P03", "53300", "40001"]) {
      expect(isStandbyFailure(Object.assign(new Error("x"), { code })), code).toBe(true);
    }
  });

  it("is not an error of the read itself, which the primary would fail too", () => {
    for (const code of ["42P01", "22P02", "42703", undefined]) {
      expect(isStandbyFailure(Object.assign(new Error("x"), { code })), String(code)).toBe(false);
    }
    expect(isStandbyFailure(null)).toBe(false);
  });
});
