import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { z } from "zod";
import type { ArtifactType } from "./source-map-store";
import { ARTIFACT_LIMITS, formatMiB } from "./artifact-limits";

/** Why a bundle cannot be stored: the `detail` of its `error` state, which sentry-cli prints. */
export class BundleError extends Error {}

export interface BundleFile {
  /** The ZIP entry's name (`files/_/_/app.js`). */
  path: string;
  type: ArtifactType;
  url: string;
  debugId: string | null;
  sourceMap: string | null;
}

export interface BundleManifest {
  bundleId: string | null;
  release: string | null;
  dist: string | null;
  files: BundleFile[];
}

export type Limits = { [Key in keyof typeof ARTIFACT_LIMITS]: number };

const ARTIFACT_TYPES = ["source", "minified_source", "source_map", "indexed_ram_bundle"] as const;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/;

/** A debug id as stored and looked up: lower case, with dashes (sentry-cli writes both spellings). */
export function normalizeDebugId(value: string): string | null {
  const lower = value.trim().toLowerCase();
  if (!UUID.test(lower)) return null;
  const hex = lower.replace(/-/g, "");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const Manifest = z.object({
  files: z.record(
    z.string(),
    z.object({
      type: z.string(),
      url: z.string().min(1).max(2048),
      headers: z.record(z.string(), z.string()).optional(),
    }),
  ),
  debug_id: z.string().nullish(),
  release: z.string().max(250).nullish(),
  dist: z.string().max(64).nullish(),
});

/**
 * The ZIP inside an artifact bundle. sentry-cli and the bundler plugins write the 8-byte `SYSB` +
 * format-version header before it (symbolic's SourceBundle), with the ZIP's offsets counted from
 * the start of the whole file: the header is checked and kept, and ZIP readers find the central
 * directory from the end anyway. A plain ZIP (older uploaders) is read as it is.
 */
function zipOf(bundle: Buffer): Buffer {
  if (bundle.subarray(0, 4).toString("latin1") === "SYSB") {
    const version = bundle.readUInt32LE(4);
    if (version !== 2 && version !== 1) throw new BundleError(`Unsupported artifact bundle format version ${version}`);
    return bundle;
  }
  if (bundle.subarray(0, 2).toString("latin1") === "PK") return bundle;
  throw new BundleError("Not an artifact bundle (neither a SYSB bundle nor a ZIP file)");
}

/** yauzl's refusals, said for the person who ran sentry-cli. */
function zipError(error: unknown): BundleError {
  if (error instanceof BundleError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/invalid relative path|absolute path|invalid characters in fileName/.test(message)) {
    return new BundleError(`The bundle names a file outside itself (${message.replace(/^.*?: /, "").slice(0, 200)}); names must be relative without ..`);
  }
  if (/too many bytes in the stream|not enough bytes in the stream/.test(message)) {
    return new BundleError("A file in the bundle inflates to a different size than it declares (a zip bomb?)");
  }
  return new BundleError(`The bundle is not a readable ZIP file (${message.slice(0, 200)})`);
}

function openZip(zip: Buffer): Promise<ZipFile> {
  return yauzl
    .fromBufferPromise(zip, { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true, strictFileNames: true })
    .catch((error: unknown) => {
      throw zipError(error);
    });
}

/** Every entry of the central directory, checked against the caps before anything is inflated. */
function readEntries(zipFile: ZipFile, limits: Limits): Promise<Map<string, Entry>> {
  if (zipFile.entryCount > limits.maxFilesPerBundle) {
    return Promise.reject(new BundleError(`The bundle holds ${zipFile.entryCount} files; at most ${limits.maxFilesPerBundle} are accepted per bundle`));
  }
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    let total = 0;
    zipFile.on("error", (error: unknown) => reject(zipError(error)));
    zipFile.on("end", () => resolve(entries));
    zipFile.on("entry", (entry: Entry) => {
      const name = entry.fileName;
      if (!name.endsWith("/")) {
        const size = entry.uncompressedSize;
        if (size > limits.maxFileSize) return reject(new BundleError(`${name} is ${formatMiB(size)}; files are at most ${formatMiB(limits.maxFileSize)}`));
        if (size > limits.compressionRatioFloor && size > entry.compressedSize * limits.maxCompressionRatio) {
          return reject(new BundleError(`${name} inflates more than ${limits.maxCompressionRatio} times its compressed size (a zip bomb?)`));
        }
        total += size;
        if (total > limits.maxBundleUncompressed) {
          return reject(new BundleError(`The bundle's files add up to more than ${formatMiB(limits.maxBundleUncompressed)} uncompressed`));
        }
        if (entries.has(name)) return reject(new BundleError(`The bundle holds ${name} twice`));
        entries.set(name, entry);
      }
      zipFile.readEntry();
    });
    zipFile.readEntry();
  });
}

/** The bytes of one entry, counted as they inflate: never more than its declared size (yauzl's check) nor the cap. */
async function readEntry(zipFile: ZipFile, entry: Entry, limits: Limits): Promise<Buffer> {
  let stream: Readable;
  try {
    stream = await zipFile.openReadStreamPromise(entry);
  } catch (error) {
    throw zipError(error);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > limits.maxFileSize || size > entry.uncompressedSize) {
        stream.destroy();
        throw new BundleError("A file in the bundle inflates to a different size than it declares (a zip bomb?)");
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    throw zipError(error);
  }
  return Buffer.concat(chunks, size);
}

function parseManifest(bytes: Buffer, entries: Map<string, Entry>): BundleManifest {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new BundleError("manifest.json is not valid JSON");
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BundleError(`manifest.json is not an artifact bundle manifest (${issue.path.join(".") || "top level"}: ${issue.message})`);
  }
  const files: BundleFile[] = [];
  for (const [path, file] of Object.entries(parsed.data.files)) {
    if (!entries.has(path)) throw new BundleError(`manifest.json names ${path.slice(0, 200)}, which the bundle does not hold`);
    if (!(ARTIFACT_TYPES as readonly string[]).includes(file.type))
      throw new BundleError(`manifest.json gives ${path.slice(0, 200)} the unknown type ${file.type.slice(0, 40)}`);
    // Header names are case-insensitive: sentry-cli writes `debug-id` and `sourcemap`, the 11.x plugins `Debug-Id` and `Sourcemap`.
    const headers = new Map(Object.entries(file.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
    const rawDebugId = headers.get("debug-id") ?? null;
    const debugId = rawDebugId === null ? null : normalizeDebugId(rawDebugId);
    if (rawDebugId !== null && debugId === null) throw new BundleError(`manifest.json gives ${path.slice(0, 200)} an invalid debug-id`);
    const sourceMap = headers.get("sourcemap") ?? headers.get("x-sourcemap") ?? null;
    files.push({ path, type: file.type as ArtifactType, url: file.url, debugId, sourceMap: sourceMap?.slice(0, 2048) ?? null });
  }
  return {
    bundleId: parsed.data.debug_id ? normalizeDebugId(parsed.data.debug_id) : null,
    release: parsed.data.release || null,
    dist: parsed.data.dist || null,
    files,
  };
}

/**
 * Reads an artifact bundle in two passes: first the central directory and `manifest.json`, every
 * cap and name checked before any file is inflated; then each file of the manifest, handed to
 * `store` with its SHA-1. A bundle that fails either pass throws a BundleError whose message is the
 * state's `detail`.
 */
export async function readArtifactBundle(
  bundle: Buffer,
  store: (file: BundleFile, bytes: Buffer, sha1: string) => Promise<void>,
  limits: Limits = ARTIFACT_LIMITS,
): Promise<BundleManifest> {
  const zip = zipOf(bundle);
  const zipFile = await openZip(zip);
  try {
    const entries = await readEntries(zipFile, limits);
    const manifestEntry = entries.get("manifest.json");
    if (!manifestEntry) throw new BundleError("The bundle has no manifest.json");
    if (manifestEntry.uncompressedSize > limits.maxManifestSize) throw new BundleError(`manifest.json is larger than ${formatMiB(limits.maxManifestSize)}`);
    const manifest = parseManifest(await readEntry(zipFile, manifestEntry, limits), entries);
    for (const file of manifest.files) {
      const bytes = await readEntry(zipFile, entries.get(file.path) as Entry, limits);
      await store(file, bytes, createHash("sha1").update(bytes).digest("hex"));
    }
    return manifest;
  } finally {
    zipFile.close();
  }
}
