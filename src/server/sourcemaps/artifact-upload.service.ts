import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { z } from "zod";
import type { AppServices } from "../context";
import { AppError } from "../errors";
import type { JobQueue } from "../jobs/job-queue";
import { ARTIFACT_LIMITS, formatMiB } from "./artifact-limits";
import type { AssemblyState } from "./artifact-assembly";
import { artifactStorage } from "./artifact-storage";
import {
  deleteAssembly,
  insertAssembly,
  insertBundle,
  insertChunk,
  selectAssembly,
  selectBundleFiles,
  selectBundlesByChecksum,
  selectExistingChunks,
  selectOrganizationBytes,
  type AssemblyRow,
} from "./artifact.queries";

type Deps = Pick<AppServices, "db" | "env" | "logger"> & { jobs: Pick<JobQueue, "enqueue"> };

/** An `error` state is answered this long (sentry-cli polls it); after that the same bundle may be uploaded afresh. */
const ERROR_STATE_TTL_MS = 10 * 60_000;

/** What `GET /api/0/organizations/{org}/chunk-upload/` answers (sentry-cli's `ChunkServerOptions`). */
export function chunkUploadOptions(apiUrl: string, organizationSlug: string) {
  return {
    url: `${apiUrl.replace(/\/$/, "")}/api/0/organizations/${encodeURIComponent(organizationSlug)}/chunk-upload/`,
    chunkSize: ARTIFACT_LIMITS.chunkSize,
    chunksPerRequest: ARTIFACT_LIMITS.chunksPerRequest,
    maxFileSize: ARTIFACT_LIMITS.maxBundleSize,
    maxRequestSize: ARTIFACT_LIMITS.maxRequestSize,
    concurrency: ARTIFACT_LIMITS.concurrency,
    hashAlgorithm: "sha1",
    compression: ["gzip"],
    // sentry-cli 2.x uploads in chunks only with `release_files`, and sends artifact bundles (not
    // the legacy per-release archive) only with `artifact_bundles`/`_v2`; 3.x no longer reads this.
    accept: ["release_files", "artifact_bundles", "artifact_bundles_v2"],
    maxWait: ARTIFACT_LIMITS.maxWaitSeconds,
  };
}

export interface UploadedPart {
  /** The multipart field: `file_gzip` (gzip-compressed) or `file`. */
  field: string;
  /** The part's filename: the SHA-1 of the uncompressed chunk. */
  name: string;
  bytes: Uint8Array;
}

const SHA1 = /^[0-9a-f]{40}$/;

/** Stores uploaded chunks content-addressed: each is verified against the SHA-1 it is named by, and storing one twice is harmless. */
export async function storeChunks(deps: Pick<AppServices, "db" | "env">, organizationId: string, parts: UploadedPart[]): Promise<void> {
  if (parts.length > ARTIFACT_LIMITS.chunksPerRequest) {
    throw new AppError("BAD_REQUEST", `At most ${ARTIFACT_LIMITS.chunksPerRequest} chunks per request`);
  }
  const chunks = parts.map((part) => {
    const sha1 = part.name.toLowerCase();
    if (!SHA1.test(sha1)) throw new AppError("BAD_REQUEST", "Each chunk's filename must be the SHA-1 of its bytes (40 hex digits)");
    if (part.field !== "file" && part.field !== "file_gzip")
      throw new AppError("BAD_REQUEST", `Unexpected field ${part.field.slice(0, 40)}; chunks go in file or file_gzip`);
    let bytes = part.bytes;
    if (part.field === "file_gzip") {
      try {
        // One byte over the cap is enough to know it is too large (and bounds a gzip bomb's memory).
        bytes = gunzipSync(part.bytes, { maxOutputLength: ARTIFACT_LIMITS.chunkSize + 1 });
      } catch (error) {
        if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") bytes = new Uint8Array(ARTIFACT_LIMITS.chunkSize + 1);
        else throw new AppError("BAD_REQUEST", `Chunk ${sha1} is not valid gzip`);
      }
    }
    if (bytes.length > ARTIFACT_LIMITS.chunkSize)
      throw new AppError("BAD_REQUEST", `Chunk ${sha1} is larger than the chunk size, ${formatMiB(ARTIFACT_LIMITS.chunkSize)}`);
    if (createHash("sha1").update(bytes).digest("hex") !== sha1) throw new AppError("BAD_REQUEST", `Chunk ${sha1} does not match its SHA-1`);
    return { sha1, bytes };
  });
  const existing = await selectExistingChunks(
    deps.db,
    organizationId,
    chunks.map((chunk) => chunk.sha1),
  );
  const fresh = chunks.filter((chunk) => !existing.has(chunk.sha1));
  const adding = fresh.reduce((sum, chunk) => sum + chunk.bytes.length, 0);
  if (adding > 0 && (await selectOrganizationBytes(deps.db, organizationId)) + adding > ARTIFACT_LIMITS.maxOrganizationBytes) {
    throw new AppError("BAD_REQUEST", `The organization's uploads would pass ${formatMiB(ARTIFACT_LIMITS.maxOrganizationBytes)}; delete old bundles first`);
  }
  const storage = artifactStorage(deps.env);
  for (const chunk of fresh) {
    const data = await storage.write("chunks", organizationId, chunk.sha1, chunk.bytes);
    await insertChunk(deps.db, organizationId, chunk.sha1, chunk.bytes.length, data);
  }
}

const Sha1 = z.string().regex(SHA1, "must be a SHA-1 (40 lowercase hex digits)");

export const AssembleInput = z
  .object({
    checksum: Sha1,
    chunks: z.array(Sha1).max(Math.ceil(ARTIFACT_LIMITS.maxBundleSize / ARTIFACT_LIMITS.chunkSize) + 1, "too many chunks for the bundle size cap"),
    projects: z.array(z.union([z.string().min(1).max(100), z.number().int()])).max(50),
    version: z.string().min(1).max(250).nullish(),
    dist: z.string().min(1).max(64).nullish(),
  })
  .refine((input) => !input.dist || input.version, { message: "dist requires a version", path: ["dist"] });
export type AssembleInput = z.infer<typeof AssembleInput>;

export interface AssembleAnswer {
  state: AssemblyState;
  missingChunks: string[];
  detail: string | null;
}

/**
 * `POST …/artifactbundle/assemble/`: first the chunks still missing (sentry-cli uploads exactly
 * those, and skips the upload when the list is empty), then the assembly's state from its row.
 * A bundle already assembled for the organization is attached to further projects without its chunks.
 */
export async function requestAssembly(deps: Deps, organizationId: string, projectIds: string[], input: AssembleInput): Promise<AssembleAnswer> {
  const answer = (state: AssemblyState, detail: string | null = null, missingChunks: string[] = []): AssembleAnswer => ({ state, missingChunks, detail });
  let assembly: AssemblyRow | null = await selectAssembly(deps.db, organizationId, input.checksum);
  if (assembly?.state === "error" && Date.now() - assembly.updatedAt.getTime() > ERROR_STATE_TTL_MS) {
    await deleteAssembly(deps.db, organizationId, input.checksum);
    assembly = null;
  }
  if (assembly?.state === "ok") {
    const bundles = await selectBundlesByChecksum(deps.db, organizationId, input.checksum);
    if (bundles.length > 0) {
      await attachToProjects(deps, organizationId, bundles, projectIds, input);
      return answer("ok");
    }
    // Every bundle made from it was deleted since: it is uploaded afresh.
    await deleteAssembly(deps.db, organizationId, input.checksum);
    assembly = null;
  }
  if (assembly) return answer(assembly.state as AssemblyState, assembly.detail);

  const present = await selectExistingChunks(deps.db, organizationId, input.chunks);
  const missing = [...new Set(input.chunks.filter((chunk) => !present.has(chunk)))];
  if (missing.length > 0 || input.chunks.length === 0) return answer("not_found", null, missing);
  const created = await insertAssembly(deps.db, {
    organizationId,
    checksum: input.checksum,
    state: "created",
    chunks: input.chunks.join(","),
    projectIds: projectIds.join(","),
    release: input.version ?? null,
    dist: input.dist ?? null,
  });
  if (created) {
    await deps.jobs.enqueue("sourcemaps.assemble", { organizationId, checksum: input.checksum }, { singletonKey: `${organizationId}:${input.checksum}` });
  }
  const now = await selectAssembly(deps.db, organizationId, input.checksum);
  return answer((now?.state ?? "created") as AssemblyState, now?.detail ?? null);
}

/** The same bytes for another project (or release): new index rows over the stored files, nothing uploaded again. */
async function attachToProjects(
  deps: Deps,
  organizationId: string,
  bundles: Awaited<ReturnType<typeof selectBundlesByChecksum>>,
  projectIds: string[],
  input: AssembleInput,
) {
  const release = input.version ?? bundles[0].release;
  const dist = input.version ? (input.dist ?? null) : bundles[0].dist;
  const wanted = projectIds.filter(
    (projectId) => !bundles.some((bundle) => bundle.projectId === projectId && bundle.release === release && bundle.dist === dist),
  );
  if (wanted.length === 0) return;
  const source = bundles[0];
  const files = (await selectBundleFiles(deps.db, organizationId, source.id)).map((file) => ({
    type: file.type,
    url: file.url,
    debugId: file.debugId,
    sourceMap: file.sourceMap,
    sha1: file.sha1,
    size: file.size,
  }));
  await deps.db.transaction(async (tx) => {
    for (const projectId of wanted) {
      await insertBundle(
        tx,
        { organizationId, projectId, checksum: source.checksum, bundleId: source.bundleId, release, dist, fileCount: source.fileCount, size: source.size },
        files,
      );
    }
  });
}
