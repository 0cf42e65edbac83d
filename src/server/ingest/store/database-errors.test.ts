import { describe, expect, it } from "vitest";
import { isConcurrencyVictim, isDataError, sqlStateOf } from "./database-errors";

const withCode = (code: string) => Object.assign(new Error(code), { code });

describe("isDataError", () => {
  it.each(["22008", "22007", "22P02", "22P05", "22021", "23503", "23514", "21000", "54000"])("%s is the data's fault: split the batch", (code) => {
    expect(isDataError(withCode(code))).toBe(true);
    expect(isDataError(new Error("wrapped", { cause: withCode(code) }))).toBe(true);
  });

  it.each(["57P01", "57P03", "08006", "53300", "40P01", "42P01", "ECONNREFUSED", "CONNECTION_CLOSED", "CONNECT_TIMEOUT"])(
    "%s is an outage (or a bug): the whole batch answers 503",
    (code) => {
      expect(isDataError(withCode(code))).toBe(false);
    },
  );

  it("treats errors without a SQLSTATE as outages", () => {
    expect(isDataError(new Error("connection terminated"))).toBe(false);
    expect(isDataError(null)).toBe(false);
    expect(sqlStateOf("22008")).toBe(null);
  });
});

describe("isConcurrencyVictim", () => {
  it("is a deadlock or serialization failure only", () => {
    expect(isConcurrencyVictim(withCode("40P01"))).toBe(true);
    expect(isConcurrencyVictim(new Error("x", { cause: withCode("40001") }))).toBe(true);
    expect(isConcurrencyVictim(withCode("22008"))).toBe(false);
  });
});
