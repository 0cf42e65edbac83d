import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projects } from "../db/schema/index";
import { PROJECT_SLUG_MESSAGE, PROJECT_SLUG_TAKEN_MESSAGE } from "../../shared/project-slug";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createOrganization, signUpVerified } from "../../../test/helpers/test-users";
import { selectProjectByRef } from "./project.queries";

describe("project slugs", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("derives a unique slug from the name, edits it, refuses a taken or malformed one, and answers it over tRPC and REST", async () => {
    const { session } = await signUpVerified(server);
    const org = await createOrganization(session);
    const first = await session.mutation("project.create", { name: "Shop Frontend!", platform: "REACT" });
    const second = await session.mutation("project.create", { name: "shop frontend", platform: "REACT" });
    const digits = await session.mutation("project.create", { name: "2024", platform: "REACT" });
    expect([first.data.slug, second.data.slug, digits.data.slug]).toEqual(["shop-frontend", "shop-frontend-2", "project-2024"]);

    const renamed = await session.mutation("project.rename", { projectId: second.data.id, name: "Admin", slug: "admin-ui" });
    expect(renamed.data.slug).toBe("admin-ui");
    const keptSlug = await session.mutation("project.rename", { projectId: second.data.id, name: "Admin panel" });
    expect(keptSlug.data.slug).toBe("admin-ui");

    const taken = await session.mutation("project.rename", { projectId: second.data.id, name: "Admin", slug: "shop-frontend" });
    expect(taken.error?.code).toBe("CONFLICT");
    expect(taken.error?.message).toBe(PROJECT_SLUG_TAKEN_MESSAGE);
    const malformed = await session.mutation("project.rename", { projectId: second.data.id, name: "Admin", slug: "42" });
    expect(malformed.error?.code).toBe("BAD_REQUEST");
    expect(malformed.error?.message).toContain(PROJECT_SLUG_MESSAGE);

    const viaRest = await session.request(`/api/v1/organizations/${org.id}/projects/${second.data.id}`);
    expect(viaRest.body.slug).toBe("admin-ui");
    const byNumber = await selectProjectByRef(server.services.db, org.id, String(first.data.number));
    const bySlug = await selectProjectByRef(server.services.db, org.id, "shop-frontend");
    expect([byNumber?.id, bySlug?.id]).toEqual([first.data.id, first.data.id]);
    expect(await selectProjectByRef(server.services.db, "another-org", "shop-frontend")).toBeNull();
  });
});

describe("the slug migration's backfill", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  it("gives existing projects the slugs new ones would get, numbered per organization", async () => {
    const a = await seedProject(database.db, "alpha");
    const b = await seedProject(database.db, "beta");
    const add = (organizationId: string, name: string, minutes: number) =>
      database.db
        .insert(projects)
        .values({ organizationId, name, slug: `tmp-${name.length}-${minutes}`, platform: "NODE_JS", createdAt: new Date(Date.UTC(2026, 0, 1, 0, minutes)) })
        .returning({ id: projects.id });
    const [web1] = await add(a.organizationId, "Web App", 1);
    const [web2] = await add(a.organizationId, "web-app", 2);
    const [web3] = await add(a.organizationId, "WEB APP!!", 3);
    const [other] = await add(b.organizationId, "Web App", 4);
    const [empty] = await add(b.organizationId, "***", 5);
    const [digits] = await add(b.organizationId, "123", 6);
    // The state before the migration: the column without values or constraints.
    await database.db.execute(sql`drop index projects_organization_slug_idx`);
    await database.db.execute(sql`alter table projects alter column slug drop not null`);
    await database.db.execute(sql`update projects set slug = null`);
    const statements = readFileSync(new URL("../../../drizzle/0013_project_slugs.sql", import.meta.url), "utf8").split("--> statement-breakpoint");
    for (const statement of statements.slice(1)) await database.db.execute(sql.raw(statement));

    const rows = await database.db.select({ id: projects.id, slug: projects.slug }).from(projects);
    const slugOf = (id: string) => rows.find((row) => row.id === id)?.slug;
    expect([web1, web2, web3, other, empty, digits].map((row) => slugOf(row.id))).toEqual([
      "web-app",
      "web-app-2",
      "web-app-3",
      "web-app",
      "project",
      "project-123",
    ]);
    expect([slugOf(a.projectId), slugOf(b.projectId)]).toEqual(["alpha", "beta"]);
  });
});
