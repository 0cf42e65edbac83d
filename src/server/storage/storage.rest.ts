import { OrganizationStorage } from "../../shared/export.views";
import type { RestRoute } from "../rest/rest-route";
import { organizationStorage } from "./storage.service";

/** Storage per project (issue 35): any member, or any token of the organization (it reads the organization itself). */
export const storageRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: "/organizations/:orgId/storage",
    summary: "Stored occurrences, bytes (estimated) and the oldest kept day, per project and in total",
    tag: "Organizations",
    output: OrganizationStorage,
    response: "Per project: occurrences and oldest day (exact, from the daily rollups), bytes (the newest rows' average stored size × occurrences)",
    access: "organization",
    tokenScope: "project:read",
    handler: (ctx) => organizationStorage(ctx),
  },
];
