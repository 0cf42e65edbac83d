import type { z } from "zod";

/** One route of /api/v1 as the catalogue (api-routes.ts) describes it. */
export interface ApiRoute {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express syntax, relative to /api/v1. */
  path: string;
  summary: string;
  tag: string;
  /** Query parameters (GET) or JSON body (writes); the path's ids are taken out of it. */
  input?: z.ZodType;
  /** The success answer: a view named in rest/openapi-views.ts. */
  output: z.ZodType;
  /** What the answer holds, in a few words. */
  response: string;
  status?: number;
  public?: boolean;
  /** Mounted in app.ts ahead of the JSON parser rather than on the v1 router (the payment webhook needs its raw body). */
  mountedBeforeJson?: true;
  /** The success answer's media type when it is not JSON (the chat's SSE stream). */
  mediaType?: string;
}

/** The projects of an organization, and one of them: the base of the project-scoped paths. */
export const PROJECTS_PATH = "/organizations/:orgId/projects";
export const PROJECT_PATH = `${PROJECTS_PATH}/:projectId`;
