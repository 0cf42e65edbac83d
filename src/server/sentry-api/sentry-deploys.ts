import { z } from "zod";
import { requirePermission } from "../organizations/permissions";
import { insertDeploy, selectDeploys } from "../releases/deploys.queries";
import type { SentryContext } from "./sentry-auth";
import { projectsByRefs } from "./sentry-projects";
import { releaseByVersion } from "./sentry-release-lookup";
import { sentryDeployView } from "./sentry-release-view";

/** `sentry-cli deploys new -e production [-n name] [-u url] [-t seconds | --started --finished]`. */
export const DeployBody = z.object({
  environment: z
    .string({ error: "environment is required" })
    .trim()
    .min(1, "environment is required")
    .max(64)
    .regex(/^[^/\r\n\t\f\v]+$/, "must not contain a slash or a line break"),
  name: z.string().max(64).nullish(),
  url: z.string().max(2048).nullish(),
  dateStarted: z.coerce.date().nullish(),
  dateFinished: z.coerce.date().nullish(),
  projects: z
    .array(z.union([z.string().min(1).max(100), z.number().int()]))
    .max(50)
    .optional(),
});

/** `POST /organizations/{org}/releases/{version}/deploys/`: records a deploy of the release (201). */
export async function createDeploy(ctx: SentryContext, version: string, body: unknown) {
  const input = DeployBody.parse(body);
  await requirePermission(ctx, "release:manage");
  const release = await releaseByVersion(ctx, version);
  // Projects named in the body must be the organization's (400 otherwise), as for releases; a
  // deploy is the release's, whatever projects it lists.
  if (input.projects?.length) await projectsByRefs(ctx, input.projects);
  const deploy = await insertDeploy(ctx.db, ctx.org.organizationId, release.id, input);
  return { status: 201, body: sentryDeployView(deploy) };
}

/** `GET /organizations/{org}/releases/{version}/deploys/`: the release's deploys, latest first. */
export async function listDeploys(ctx: SentryContext, version: string) {
  const release = await releaseByVersion(ctx, version);
  return (await selectDeploys(ctx.db, ctx.org.organizationId, release.id)).map(sentryDeployView);
}
