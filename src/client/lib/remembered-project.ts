import { useEffect } from "react";
import { useActiveOrganizationId } from "./use-organization";

/**
 * The project a user last looked at, per organization, so moving between the project-scoped
 * screens (issues → events → exceptions, or back from an issue) keeps it instead of jumping to the
 * organization's first project. Kept in this browser's storage: it is a preference, not data, and
 * a stale id (a deleted project, another organization's) is simply not used.
 */
const storageKey = (organizationId: string) => `faultline-project:${organizationId}`;

export function rememberedProjectId(organizationId: string): string | null {
  try {
    return localStorage.getItem(storageKey(organizationId));
  } catch {
    return null; // storage disabled: fall back to the first project
  }
}

export function rememberProject(organizationId: string, projectId: string) {
  try {
    localStorage.setItem(storageKey(organizationId), projectId);
  } catch {
    // storage disabled or full: nothing to remember with
  }
}

/** Remembers the project a screen shows, for the active organization. */
export function useRememberProject(projectId: string | undefined) {
  const organizationId = useActiveOrganizationId();
  useEffect(() => {
    if (organizationId && projectId) rememberProject(organizationId, projectId);
  }, [organizationId, projectId]);
}
