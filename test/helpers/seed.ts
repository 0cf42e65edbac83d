import { randomUUID } from "node:crypto";
import type { Db } from "../../src/server/db/client";
import { organization, projectKeys, projects } from "../../src/server/db/schema/index";
import { generatePublicKey } from "../../src/server/projects/project-key";
import { slugFromName } from "../../src/shared/project-slug";

/** An organization with one project and key, written straight to the database (no HTTP). */
export async function seedProject(db: Db, name = "seeded") {
  const [org] = await db
    .insert(organization)
    .values({ name, slug: `${name}-${randomUUID()}` })
    .returning();
  const [project] = await db
    .insert(projects)
    .values({ organizationId: org.id, name, slug: slugFromName(name), platform: "NODE_JS" })
    .returning();
  const [key] = await db.insert(projectKeys).values({ organizationId: org.id, projectId: project.id, publicKey: generatePublicKey() }).returning();
  return { organizationId: org.id, projectId: project.id, number: project.number, publicKey: key.publicKey };
}
