import { CreateProjectInput, ProjectIdInput } from "../../shared/project.inputs";
import { ProjectView } from "../../shared/project.views";
import { ProjectList } from "../rest/openapi-views";
import { PROJECT_PATH, PROJECTS_PATH, type RestRoute } from "../rest/rest-route";
import { createProject, getProject, listProjects } from "./project.service";

const tag = "Projects";

/** REST twins of project.list / project.get / project.create (spec §7). */
export const projectRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: PROJECTS_PATH,
    summary: "List projects",
    tag,
    output: ProjectList,
    response: "Array of projects with DSN and keys",
    access: "organization",
    tokenScope: "project:read",
    handler: (ctx) => listProjects(ctx),
  },
  {
    method: "post",
    path: PROJECTS_PATH,
    summary: "Create a project",
    tag,
    input: CreateProjectInput,
    output: ProjectView,
    response: "The new project",
    status: 201,
    access: "organization",
    tokenScope: "project:write",
    permission: "project:create",
    handler: (ctx, req) => createProject(ctx, CreateProjectInput.parse(req.body ?? {})),
  },
  {
    method: "get",
    path: PROJECT_PATH,
    summary: "Get a project",
    tag,
    input: ProjectIdInput,
    output: ProjectView,
    response: "One project with DSN and keys",
    access: "organization",
    tokenScope: "project:read",
    handler: (ctx, req) => getProject(ctx, ProjectIdInput.parse(req.params).projectId),
  },
];
