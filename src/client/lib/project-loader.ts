import { notFound } from "@tanstack/react-router";
import { rememberedProjectId } from "./remembered-project";
import { trpcErrorCode, type TrpcUtils } from "./trpc";
import { followLinkToItsOrganization, type LinkLoaderArgs } from "./link-organization";

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
 * projects there is nothing to redirect to; the screen shows the not-found view. A project of
 * another of the user's organizations (an alert mail's link) makes that organization active.
 */
export async function firstProjectToRedirectTo(args: LinkLoaderArgs, projectId: string | undefined) {
  const { trpc, activeOrganizationId } = args.context;
  const projects = await loadProjects(trpc, activeOrganizationId);
  if (projectId && projects && !projects.some((project) => project.id === projectId))
    await followLinkToItsOrganization(args, { kind: "project", id: projectId });
  if (projectId || !projects || !activeOrganizationId) return undefined;
  const remembered = rememberedProjectId(activeOrganizationId);
  return (projects.find((project) => project.id === remembered) ?? projects[0])?.id;
}
