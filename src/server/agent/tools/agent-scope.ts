import type { ServiceContext } from "../../context";

/**
 * What every agent tool acts in, fixed by the server before the model is called: the caller's
 * organization and role (from their membership or an API token), and the one project the
 * conversation is about. Nothing the model sends can change it — tool inputs carry row ids only,
 * and every service the tools call checks those ids against this organization and project.
 * A Pick of the ServiceContext, so the tools pass it to those services unchanged; its
 * `checkedProject` is the project's row as the server checked it before the model was called.
 */
export interface AgentScope extends Pick<ServiceContext, "db" | "org" | "checkedProject" | "via"> {
  projectId: string;
  /** The conversation's time window; tools use it when the model names none. */
  window?: { from: Date; to: Date };
}
