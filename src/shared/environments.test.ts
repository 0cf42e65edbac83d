import { describe, expect, it } from "vitest";
import { ENVIRONMENT_LABELS, ENVIRONMENTS, toEnvironmentBucket } from "./environments";

describe("environment buckets", () => {
  it("are the spec's three, each with a label", () => {
    expect(ENVIRONMENTS).toEqual(["PRODUCTION", "STAGING", "DEVELOPMENT"]);
    expect(Object.keys(ENVIRONMENT_LABELS)).toEqual([...ENVIRONMENTS]);
  });

  it("map SDK names case- and space-insensitively; none is production, unknown is development", () => {
    expect([undefined, null, "", "  ", " PROD ", "live"].map(toEnvironmentBucket)).toEqual(Array(6).fill("PRODUCTION"));
    expect(["UAT", "pre-prod", "testing"].map(toEnvironmentBucket)).toEqual(["STAGING", "STAGING", "STAGING"]);
    expect(["dev", "production-eu", "constructor", "__proto__"].map(toEnvironmentBucket)).toEqual(Array(4).fill("DEVELOPMENT"));
  });
});
