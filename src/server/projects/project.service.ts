import { and, count, eq, ne } from "drizzle-orm";
import type { CreateProjectInput, CreateProjectKeyInput, RenameProjectInput } from "../../shared/project.inputs";
import type { Platform } from "../../shared/platforms";
import type { ProjectView } from "../../shared/project.views";
import { PROJECT_SLUG_TAKEN_MESSAGE, slugFromName, uniqueSlug } from "../../shared/project-slug";
import { insertDefaultAlertRule } from "../alerts/alert-rule.service";
import type { Db } from "../db/client";
import { organization, projectKeys, projects } from "../db/schema/index";
import { AppError, notFound } from "../errors";
import type { ServiceContext } from "../context";
import { requirePermission } from "../organizations/permissions";
import { formatDsn } from "../ingest/sentry/dsn";
import { generatePublicKey } from "./project-key";
import { activeKeyFilter, selectKeys, selectProject, selectProjects, selectSlugsLike } from "./project.queries";

type ProjectRow = typeof projects.$inferSelect;
type KeyRow = typeof projectKeys.$inferSelect;

/**
 * The key whose DSN is "the project's DSN": the one the user made primary, else the oldest active
 * key — never simply the newest, or adding a key would silently change the DSN people copy.
 */
function primaryKeyOf(keys: KeyRow[]): KeyRow | null {
  const active = keys.filter((key) => !key.revokedAt);
  const byAge = [...active].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  return active.find((key) => key.isPrimary) ?? byAge[0] ?? null;
}

function toView(apiUrl: string, project: ProjectRow, keys: KeyRow[]): ProjectView {
  const primaryId = primaryKeyOf(keys)?.id;
  const keyViews = keys.map((key) => ({
    id: key.id,
    label: key.label,
    publicKey: key.publicKey,
    dsn: formatDsn({ baseUrl: apiUrl, publicKey: key.publicKey, projectNumber: project.number }),
    createdAt: key.createdAt,
    revokedAt: key.revokedAt,
    isPrimary: key.id === primaryId,
  }));
  const primary = keyViews.find((key) => key.isPrimary) ?? null;
  return {
    id: project.id,
    organizationId: project.organizationId,
    number: project.number,
    name: project.name,
    slug: project.slug,
    platform: project.platform as Platform,
    description: project.description,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
    dsn: primary?.dsn ?? null,
    apiKey: primary?.publicKey ?? null,
    keys: keyViews,
  };
}

async function loadProject(ctx: ServiceContext, projectId: string) {
  const project = await selectProject(ctx.db, ctx.org.organizationId, projectId);
  if (!project) throw notFound("Project");
  return project;
}

export async function listProjects(ctx: ServiceContext): Promise<ProjectView[]> {
  const rows = await selectProjects(ctx.db, ctx.org.organizationId);
  const keys = await selectKeys(
    ctx.db,
    ctx.org.organizationId,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    toView(
      ctx.env.API_URL,
      row,
      keys.filter((key) => key.projectId === row.id),
    ),
  );
}

export async function getProject(ctx: ServiceContext, projectId: string): Promise<ProjectView> {
  const project = await loadProject(ctx, projectId);
  const keys = await selectKeys(ctx.db, ctx.org.organizationId, [project.id]);
  return toView(ctx.env.API_URL, project, keys);
}

export async function createProject(ctx: ServiceContext, input: CreateProjectInput): Promise<ProjectView> {
  await requirePermission(ctx, "project:create");
  const { project, key } = await ctx.db.transaction(async (tx) => {
    await lockOrganizationSlugs(tx, ctx.org.organizationId);
    const base = slugFromName(input.name);
    const slug = uniqueSlug(base, await selectSlugsLike(tx, ctx.org.organizationId, base));
    const [project] = await tx
      .insert(projects)
      .values({ organizationId: ctx.org.organizationId, name: input.name, slug, platform: input.platform, description: input.description || null })
      .returning();
    const [key] = await tx
      .insert(projectKeys)
      .values({ organizationId: ctx.org.organizationId, projectId: project.id, publicKey: generatePublicKey(), isPrimary: true })
      .returning();
    await insertDefaultAlertRule(tx, ctx.org.organizationId, project.id);
    return { project, key };
  });
  return toView(ctx.env.API_URL, project, [key]);
}

/**
 * Slug choices of one organization take its row lock first: two projects created at once with the
 * same name would otherwise both pick the free slug and one would fail on the unique index.
 */
async function lockOrganizationSlugs(tx: Db, organizationId: string) {
  await tx.select({ id: organization.id }).from(organization).where(eq(organization.id, organizationId)).for("update");
}

export async function renameProject(ctx: ServiceContext, input: RenameProjectInput): Promise<ProjectView> {
  await loadProject(ctx, input.projectId);
  await requirePermission(ctx, "project:update");
  await ctx.db.transaction(async (tx) => {
    if (input.slug !== undefined) {
      await lockOrganizationSlugs(tx, ctx.org.organizationId);
      const [other] = await tx
        .select({ id: projects.id })
        .from(projects)
        .where(and(eq(projects.organizationId, ctx.org.organizationId), eq(projects.slug, input.slug), ne(projects.id, input.projectId)));
      if (other) throw new AppError("CONFLICT", PROJECT_SLUG_TAKEN_MESSAGE);
    }
    await tx
      .update(projects)
      .set({
        name: input.name,
        ...(input.slug !== undefined ? { slug: input.slug } : {}),
        ...(input.description !== undefined ? { description: input.description || null } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(projects.organizationId, ctx.org.organizationId), eq(projects.id, input.projectId)));
  });
  return getProject(ctx, input.projectId);
}

export async function createProjectKey(ctx: ServiceContext, input: CreateProjectKeyInput): Promise<ProjectView> {
  await loadProject(ctx, input.projectId);
  await requirePermission(ctx, "project:keys");
  await ctx.db.insert(projectKeys).values({
    organizationId: ctx.org.organizationId,
    projectId: input.projectId,
    publicKey: generatePublicKey(),
    label: input.label,
  });
  return getProject(ctx, input.projectId);
}

/**
 * Key changes of one project take its row lock first: "one primary key per project" (a partial
 * unique index) would otherwise fail one of two concurrent changes with a constraint error.
 */
async function lockProject(tx: Db, organizationId: string, projectId: string) {
  await tx
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), eq(projects.id, projectId)))
    .for("update");
}

/** Rotation = a new key now, the old one revoked in the same transaction; a primary key's successor stays primary. */
export async function rotateProjectKey(ctx: ServiceContext, projectId: string, keyId: string): Promise<ProjectView> {
  await loadProject(ctx, projectId);
  await requirePermission(ctx, "project:keys");
  const old = await ctx.db.transaction(async (tx) => {
    await lockProject(tx, ctx.org.organizationId, projectId);
    const wasPrimary = primaryKeyOf(await selectKeys(tx, ctx.org.organizationId, [projectId]))?.id === keyId;
    const [old] = await tx
      .update(projectKeys)
      .set({ revokedAt: new Date(), isPrimary: false })
      .where(and(activeKeyFilter(ctx.org.organizationId, projectId), eq(projectKeys.id, keyId)))
      .returning();
    if (!old) throw notFound("Key");
    await tx
      .insert(projectKeys)
      .values({ organizationId: ctx.org.organizationId, projectId, publicKey: generatePublicKey(), label: old.label, isPrimary: wasPrimary });
    return old;
  });
  // Told after the commit: told before it, a lookup in between would cache the key as valid again.
  ctx.keyRevocations.keysRevoked([old.publicKey]);
  return getProject(ctx, projectId);
}

export async function revokeProjectKey(ctx: ServiceContext, projectId: string, keyId: string): Promise<ProjectView> {
  await loadProject(ctx, projectId);
  await requirePermission(ctx, "project:keys");
  const revoked = await ctx.db.transaction(async (tx) => {
    await lockProject(tx, ctx.org.organizationId, projectId);
    const [{ active }] = await tx.select({ active: count() }).from(projectKeys).where(activeKeyFilter(ctx.org.organizationId, projectId));
    const [revoked] = await tx
      .update(projectKeys)
      .set({ revokedAt: new Date(), isPrimary: false })
      .where(and(activeKeyFilter(ctx.org.organizationId, projectId), eq(projectKeys.id, keyId)))
      .returning();
    if (!revoked) throw notFound("Key");
    // SDKs configured with the last key would silently lose every event.
    if (active <= 1) throw new AppError("CONFLICT", "A project needs at least one active key. Create a new key before revoking this one.");
    return revoked;
  });
  ctx.keyRevocations.keysRevoked([revoked.publicKey]);
  return getProject(ctx, projectId);
}

/** The user's choice of the key whose DSN the project shows; only an active key of the project can be chosen. */
export async function setPrimaryProjectKey(ctx: ServiceContext, projectId: string, keyId: string): Promise<ProjectView> {
  await loadProject(ctx, projectId);
  await requirePermission(ctx, "project:keys");
  await ctx.db.transaction(async (tx) => {
    await lockProject(tx, ctx.org.organizationId, projectId);
    const [chosen] = await tx
      .select({ id: projectKeys.id })
      .from(projectKeys)
      .where(and(activeKeyFilter(ctx.org.organizationId, projectId), eq(projectKeys.id, keyId)));
    if (!chosen) throw notFound("Key");
    // Cleared first: the partial unique index allows one primary key per project at any moment.
    await tx
      .update(projectKeys)
      .set({ isPrimary: false })
      .where(and(eq(projectKeys.organizationId, ctx.org.organizationId), eq(projectKeys.projectId, projectId), eq(projectKeys.isPrimary, true)));
    await tx.update(projectKeys).set({ isPrimary: true }).where(eq(projectKeys.id, chosen.id));
  });
  return getProject(ctx, projectId);
}
