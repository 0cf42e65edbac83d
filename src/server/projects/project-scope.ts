import { z } from "zod";
import { isProjectSlug } from "../../shared/project-slug";
import { notFound } from "../errors";
import type { ServiceContext } from "../context";
import { selectProject, selectProjectByRef } from "./project.queries";

export type ProjectRow = NonNullable<Awaited<ReturnType<typeof selectProject>>>;

/**
 * The first statement of every project-scoped verb: the project must belong to the caller's
 * organization. Another tenant's project answers the same NOT_FOUND as a missing one. A project
 * the server checked earlier in the same request (`checkedProject`, never client input) is not
 * read again: the agent's tools run several services on the conversation's project in one answer.
 */
export async function requireProject(ctx: Pick<ServiceContext, "db" | "org" | "checkedProject">, projectId: string) {
  const checked = ctx.checkedProject;
  if (checked && checked.id === projectId && checked.organizationId === ctx.org.organizationId) return checked;
  const project = await selectProject(ctx.db, ctx.org.organizationId, projectId);
  if (!project) throw notFound("Project");
  return project;
}

const Uuid = z.uuid();
const isUuid = (value: string) => Uuid.safeParse(value).success;
const ONLY_DIGITS = /^[0-9]+$/;

/**
 * The project id a path's `:projectId` names: its id, its number or its slug, looked up in the
 * caller's organization only (another organization's number or slug answers the same NOT_FOUND
 * as an unknown id). An id is returned as it is, for the verb's `requireProject`; so is a value
 * that is none of the three, which the route's input then refuses as before (400).
 */
export async function projectIdOfRef(ctx: Pick<ServiceContext, "db" | "org">, ref: string): Promise<string> {
  if (isUuid(ref) || !(ONLY_DIGITS.test(ref) || isProjectSlug(ref))) return ref;
  const project = await selectProjectByRef(ctx.db, ctx.org.organizationId, ref);
  if (!project) throw notFound("Project");
  return project.id;
}
