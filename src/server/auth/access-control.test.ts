import { describe, expect, it } from "vitest";
import { ORGANIZATION_ROLES } from "../../shared/roles";
import { roles } from "./access-control";

describe("access-control roles", () => {
  it("define exactly the shared role names the client offers", () => {
    expect(Object.keys(roles).sort()).toEqual([...ORGANIZATION_ROLES].sort());
  });
});
