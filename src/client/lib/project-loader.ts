import { notFound } from "@tanstack/react-router";
import { rememberedProjectId } from "./remembered-project";
import { trpcErrorCode, type TrpcUtils } from "./trpc";

/**
 * Loads the active organization's projects for a screen. A session whose active organization the
 * user no longer belongs to is answered NOT_FOUND by the server: a plain not-found (spec §8).
 */
export async function loadProjects(trpc: TrpcUtils, activeOrganizationId: string | null) {
  if (!activeOrganizationId) return;
  try {
    return await trpc.project.list.ensureData();
  } catch (error) {
    if (trpcErrorCode(error) === "NOT_FOUND") throw notFound();
    throw error;
  }
}

/**
 * For the project-scoped lists (issues, exceptions, events; spec §2): loads the projects and, when
 * the URL names no project, answers the project to redirect to: the one the user last chose in
 * this organization if it still exists, else the first (spec §2). Without an organization or
 * projects there is nothing to redirect to; the screen shows the not-found view.
 */
export async function firstProjectToRedirectTo(trpc: TrpcUtils, activeOrganizationId: string | null, projectId: string | undefined) {
  const projects = await loadProjects(trpc, activeOrganizationId);
  if (projectId || !projects || !activeOrganizationId) return undefined;
  const remembered = rememberedProjectId(activeOrganizationId);
  return (projects.find((project) => project.id === remembered) ?? projects[0])?.id;
}
