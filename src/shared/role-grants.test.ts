import { describe, expect, it } from "vitest";
import { BUILT_IN_ROLE_PERMISSIONS, permissionsOfMap, type Permission, type PermissionMap } from "./permissions";
import { mayChangeRoleOf, mayGiveRole } from "./role-grants";

const held = (map: PermissionMap) => new Set<Permission>(permissionsOfMap(map));
const customRoles = new Map<string, PermissionMap>([
  ["triager", { issue: ["triage"] }],
  ["recruiter", { invitation: ["create"], member: ["create"] }],
]);

describe("who may give which role", () => {
  it("lets an owner give every role, owner included", () => {
    const owner = held(BUILT_IN_ROLE_PERMISSIONS.owner);
    expect(["owner", "admin", "member", "triager", "recruiter", "admin,triager"].map((role) => mayGiveRole(owner, true, role, customRoles))).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it("keeps owner for owners: an admin holds almost everything but cannot make owners", () => {
    const admin = held(BUILT_IN_ROLE_PERMISSIONS.admin);
    expect(mayGiveRole(admin, false, "owner", customRoles)).toBe("Only an owner can make someone an owner");
    expect(mayGiveRole(admin, false, "member,owner", customRoles)).toBe("Only an owner can make someone an owner");
    expect(mayGiveRole(admin, false, "admin", customRoles)).toBeNull();
    expect(mayGiveRole(admin, false, "triager", customRoles)).toBeNull();
  });

  it("refuses a role granting a permission the giver lacks, naming what is beyond them", () => {
    const recruiter = held({ invitation: ["create"], member: ["create"] });
    expect(mayGiveRole(recruiter, false, "recruiter", customRoles)).toBeNull();
    expect(mayGiveRole(recruiter, false, "triager", customRoles)).toBe("You can only give a role whose permissions you hold (it also grants issue:triage)");
    expect(mayGiveRole(recruiter, false, "member", customRoles)).toBe(
      "You can only give a role whose permissions you hold (it also grants ac:read, issue:triage, alert:snooze)",
    );
    expect(mayGiveRole(recruiter, false, "admin", customRoles)).toMatch(/^You can only give a role whose permissions you hold/);
  });

  it("judges several comma-separated roles by everything they grant together", () => {
    const triager = held({ issue: ["triage"], invitation: ["create"] });
    expect(mayGiveRole(triager, false, "triager", customRoles)).toBeNull();
    expect(mayGiveRole(triager, false, "triager,recruiter", customRoles)).toBe(
      "You can only give a role whose permissions you hold (it also grants member:create)",
    );
  });

  it("refuses names that are no role here, and an empty one", () => {
    const owner = held(BUILT_IN_ROLE_PERMISSIONS.owner);
    expect(mayGiveRole(owner, true, "auditor", customRoles)).toBe("There is no role named auditor");
    expect(mayGiveRole(owner, true, "admin,auditor", customRoles)).toBe("There is no role named auditor");
    expect(mayGiveRole(owner, true, " , ", customRoles)).toBe("Choose a role");
  });

  it("lets nobody change their own role, and only owners change an owner's", () => {
    expect(mayChangeRoleOf(true, true, "owner")).toBe("Nobody can change their own role");
    expect(mayChangeRoleOf(false, true, "admin")).toBe("Nobody can change their own role");
    expect(mayChangeRoleOf(false, false, "admin,owner")).toBe("Only an owner can change an owner's role");
    expect(mayChangeRoleOf(true, false, "owner")).toBeNull();
    expect(mayChangeRoleOf(false, false, "member")).toBeNull();
  });
});
