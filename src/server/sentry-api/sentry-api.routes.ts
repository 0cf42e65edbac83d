import express, { Router, type NextFunction, type Request, type Response } from "express";
import type { AppServices } from "../context";
import { AppError } from "../errors";
import { requirePermission } from "../organizations/permissions";
import { selectProjects } from "../projects/project.queries";
import { ARTIFACT_LIMITS } from "../sourcemaps/artifact-limits";
import { AssembleInput, chunkUploadOptions, requestAssembly, storeChunks, type UploadedPart } from "../sourcemaps/artifact-upload.service";
import { requireScope, sentryContext, sentryScopesOf, sentryToken, type SentryContext } from "./sentry-auth";
import { sentryErrorHandler, sentryNotFound } from "./sentry-errors";
import { projectsByRefs, sentryProjectView } from "./sentry-projects";
import { sentryReleaseRoutes, type SentryHandler } from "./sentry-release.routes";
import { createRelease } from "./sentry-releases";

/** The chunk-upload path, whose body may be far larger than any other JSON API's (app.ts exempts it from the global body limit). */
export const CHUNK_UPLOAD_PATH = /^\/api\/0\/organizations\/[^/]+\/chunk-upload\/$/;

/** The body of a chunk upload, read whole up to the request cap, as multipart parts. */
async function readParts(req: Request): Promise<UploadedPart[]> {
  const type = req.headers["content-type"] ?? "";
  if (!/^multipart\/form-data/i.test(type)) throw new AppError("BAD_REQUEST", "Chunks are uploaded as multipart/form-data");
  const declared = Number(req.headers["content-length"] ?? 0);
  const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", `Requests are at most ${ARTIFACT_LIMITS.maxRequestSize} bytes`);
  if (declared > ARTIFACT_LIMITS.maxRequestSize) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > ARTIFACT_LIMITS.maxRequestSize) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks, size), { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError("BAD_REQUEST", "Malformed multipart body");
  }
  const parts: UploadedPart[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === "string") continue;
    parts.push({ field, name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return parts;
}

/**
 * The Sentry tool API under /api/0 — what sentry-cli 2.x and 3.x and the bundler plugins call to
 * upload source maps and create releases (docs/sentry-tool-api.md). Organization API tokens only
 * (`Authorization: Bearer flt_…`); errors in Sentry's `{"detail": …}` shape; paths with Sentry's
 * trailing slashes.
 */
export function sentryApiRoutes(services: AppServices): Router {
  const router = Router({ strict: true });
  const json = express.json({ limit: "1mb" });

  // The token and its organization come first: a body is read only for a caller who may send one,
  // so a malformed body answers 401 without a token and 404 on another organization's slug.
  const org = (handler: SentryHandler, status = 200) => [
    async (req: Request, res: Response, next: NextFunction) => {
      res.locals.sentry = await sentryContext(services, req, String(req.params.org));
      next();
    },
    json,
    async (req: Request, res: Response) => {
      const ctx = res.locals.sentry as SentryContext;
      const result = await handler(ctx, req);
      if (result && typeof result === "object" && "status" in result && "body" in result && typeof result.status === "number") {
        if (result.status === 204) res.status(204).end();
        else res.status(result.status).json(result.body);
        return;
      }
      res.status(status).json(result);
    },
  ];

  router.get("/", async (req, res) => {
    const token = await sentryToken(services, req);
    res.json({ version: "0", auth: { scopes: sentryScopesOf(token) }, user: { id: token.userId } });
  });

  router.get(
    "/organizations/:org/",
    ...org(async (ctx) => ({
      id: ctx.organization.id,
      slug: ctx.organization.slug,
      name: ctx.organization.name,
      dateCreated: ctx.organization.createdAt.toISOString(),
      features: [],
    })),
  );
  router.get(
    "/organizations/:org/projects/",
    ...org(async (ctx) => (await selectProjects(ctx.db, ctx.org.organizationId)).map((project) => sentryProjectView(ctx, project))),
  );

  // Source maps: chunk upload and artifact-bundle assembly (sourcemaps/).
  router.get(
    "/organizations/:org/chunk-upload/",
    ...org(async (ctx) => {
      requireScope(ctx, "project:releases");
      return chunkUploadOptions(ctx.env.API_URL, ctx.organization.slug);
    }),
  );
  router.post("/organizations/:org/chunk-upload/", async (req, res) => {
    const ctx = await sentryContext(services, req, String(req.params.org));
    requireScope(ctx, "project:releases");
    await requirePermission(ctx, "release:manage");
    await storeChunks(ctx, ctx.org.organizationId, await readParts(req));
    res.status(200).json({});
  });
  router.post(
    "/organizations/:org/artifactbundle/assemble/",
    ...org(async (ctx, req) => {
      requireScope(ctx, "project:releases");
      const input = AssembleInput.parse(req.body ?? {});
      await requirePermission(ctx, "release:manage");
      const projects = await projectsByRefs(ctx, input.projects);
      // A release-based upload names its release: it exists from now on, for the listed projects.
      if (input.version)
        await createRelease(
          ctx,
          { version: input.version },
          projects.map((project) => project.id),
        );
      return requestAssembly(
        ctx,
        ctx.org.organizationId,
        projects.map((project) => project.id),
        input,
      );
    }),
  );

  sentryReleaseRoutes(router, org);

  router.use(sentryNotFound);
  router.use(sentryErrorHandler(services.logger));
  return router;
}
