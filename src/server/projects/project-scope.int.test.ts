import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import type { Db } from "../db/client";
import { requireProject } from "./project-scope";

describe("requireProject", () => {
  let database: TestDatabase;
  let a: Awaited<ReturnType<typeof seedProject>>;
  let b: Awaited<ReturnType<typeof seedProject>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    a = await seedProject(database.db, "scope-a");
    b = await seedProject(database.db, "scope-b");
  });
  afterAll(() => database.destroy());

  const orgA = () => ({ organizationId: a.organizationId, userId: "u", role: "owner" });

  it("answers the project the request already checked without reading it again", async () => {
    const checked = await requireProject({ db: database.db, org: orgA() }, a.projectId);
    // A database that fails on any use: the checked row must come back untouched.
    const unusable = new Proxy(
      {},
      {
        get: () => {
          throw new Error("read the database");
        },
      },
    ) as Db;
    expect(await requireProject({ db: unusable, org: orgA(), checkedProject: checked }, a.projectId)).toBe(checked);
  });

  it("never lets a checked row stand for another project or another organization", async () => {
    const checkedA = await requireProject({ db: database.db, org: orgA() }, a.projectId);
    await expect(requireProject({ db: database.db, org: orgA(), checkedProject: checkedA }, b.projectId)).rejects.toMatchObject({ code: "NOT_FOUND" });
    const checkedB = await requireProject({ db: database.db, org: { ...orgA(), organizationId: b.organizationId } }, b.projectId);
    await expect(requireProject({ db: database.db, org: orgA(), checkedProject: checkedB }, b.projectId)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
