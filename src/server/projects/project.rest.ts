import { Router } from "express";
import { CreateProjectInput, ProjectIdInput } from "../../shared/project.inputs";
import { orgRoute } from "../rest/context";
import type { AppServices } from "../context";
import { createProject, getProject, listProjects } from "./project.service";

/** REST twins of project.list / project.get / project.create (spec §7). */
export function projectRestRoutes(services: AppServices) {
  const routes = Router({ mergeParams: true });
  routes.get(
    "/organizations/:orgId/projects",
    orgRoute(services, (ctx) => listProjects(ctx)),
  );
  routes.get(
    "/organizations/:orgId/projects/:projectId",
    orgRoute(services, (ctx, req) => getProject(ctx, ProjectIdInput.parse(req.params).projectId)),
  );
  routes.post(
    "/organizations/:orgId/projects",
    orgRoute(services, (ctx, req) => createProject(ctx, CreateProjectInput.parse(req.body ?? {})), 201),
  );
  return routes;
}
