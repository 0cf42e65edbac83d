import { z } from "zod";
import { ListReleasesInput, RELEASE_STATUS_FILTERS } from "../../../shared/release.inputs";
import { listReleases } from "../../releases/release.service";
import { defineAgentTool } from "./agent-tool";

export const listReleasesTool = defineAgentTool({
  name: "listReleases",
  description:
    "The project's releases, newest first, with their health from sessions (sessions, crash-free sessions % and users %, adoption % of the last 24 h — null when the release has no sessions, which is not healthy), new issues, events, deploys and commits.",
  kind: "read",
  input: z.object({
    environment: z.string().max(200).optional().describe("Only this environment, as the SDK named it (e.g. production)"),
    status: z.enum(RELEASE_STATUS_FILTERS).optional().describe("open (default), archived or all"),
    limit: z.number().int().min(1).max(20).optional().describe("How many releases (default 10)"),
  }),
  async execute(scope, input) {
    const page = await listReleases(
      scope,
      ListReleasesInput.parse({ projectId: scope.projectId, environment: input.environment, status: input.status, page: 1, size: input.limit ?? 10 }),
    );
    return {
      total: page.meta.totalItems,
      releases: page.items.map((release) => ({
        version: release.version,
        status: release.status,
        dateCreated: release.dateCreated,
        dateReleased: release.dateReleased,
        health: release.health,
        newIssues: release.newIssues,
        events: release.events,
        deploys: release.deploys,
        commitCount: release.commitCount,
      })),
    };
  },
});
