import { z } from "zod";
import { ReleaseInput, ReleaseVersion } from "../../../shared/release.inputs";
import { notFound } from "../../errors";
import { getRelease, newestReleaseVersion } from "../../releases/release.service";
import { defineAgentTool } from "./agent-tool";

/** Days of daily health the model gets (the screen shows 30). */
const DAYS = 14;
/** Commits the model gets, newest first. */
const COMMITS = 10;

export const releaseDetailTool = defineAgentTool({
  name: "getRelease",
  description:
    "One release of the project (the newest when no version is given): health (crash-free sessions and users %, adoption %, null without sessions), sessions and crashes per day for 14 days, the issues first seen in it, the issues that regressed in it, its deploys and its newest commits.",
  kind: "read",
  input: z.object({
    version: ReleaseVersion.optional().describe("The release's version, e.g. shop@1.4.0 (default: the newest release)"),
    environment: z.string().max(200).optional().describe("Health of this environment only, as the SDK named it"),
  }),
  async execute(scope, input) {
    // The newest version alone: the list's figures would be computed here and again by getRelease.
    const version = input.version ?? (await newestReleaseVersion(scope, scope.projectId));
    if (!version) throw notFound("Release");
    const release = await getRelease(scope, ReleaseInput.parse({ projectId: scope.projectId, version, environment: input.environment }));
    const issue = (entry: (typeof release.newIssueList)[number]) => ({
      issueId: entry.id,
      title: entry.title,
      level: entry.level,
      status: entry.status,
      eventCount: entry.eventCount,
    });
    return {
      version: release.version,
      status: release.status,
      dateCreated: release.dateCreated,
      dateReleased: release.dateReleased,
      health: release.health,
      events: release.events,
      healthByDay: release.healthByDay.slice(-DAYS),
      newIssues: release.newIssueList.map(issue),
      regressedIssues: release.regressedIssues.map(issue),
      deploys: release.deployList.map((deploy) => ({ environment: deploy.environment, dateFinished: deploy.dateFinished })),
      commitCount: release.commitCount,
      commits: release.commits.slice(0, COMMITS).map((commit) => ({
        commitId: commit.commitId,
        message: commit.message?.split("\n")[0] ?? null,
        author: commit.authorName ?? commit.authorEmail,
        files: commit.files.length,
      })),
    };
  },
});
