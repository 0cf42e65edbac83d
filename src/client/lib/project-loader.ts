import { notFound } from "@tanstack/react-router";
import { trpcErrorCode, type TrpcUtils } from "./trpc";

/**
 * Loads the active organization's projects for a screen. A session whose active organization the
 * user no longer belongs to is answered NOT_FOUND by the server: a plain not-found (spec §8).
 */
export async function loadProjects(trpc: TrpcUtils, activeOrganizationId: string | null) {
  if (!activeOrganizationId) return;
  try {
    await trpc.project.list.ensureData();
  } catch (error) {
    if (trpcErrorCode(error) === "NOT_FOUND") throw notFound();
    throw error;
  }
}
