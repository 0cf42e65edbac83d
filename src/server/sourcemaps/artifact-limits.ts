/**
 * The caps of the source-map upload (sentry-cli's chunk upload and artifact-bundle assembly), in
 * one place; docs/sentry-tool-api.md lists them. Each is answered with a `detail` sentry-cli
 * prints: a 4xx on the request that passes it, or the bundle's `error` state when assembly finds it.
 */
const MiB = 1024 * 1024;

export const ARTIFACT_LIMITS = {
  /** Bytes of one chunk (uncompressed), what `GET …/chunk-upload/` tells sentry-cli to cut bundles into. */
  chunkSize: 8 * MiB,
  /** Chunks sentry-cli may send in one request. */
  chunksPerRequest: 4,
  /** Bytes of one chunk-upload request body (the server reads it whole, so this bounds its memory per request). */
  maxRequestSize: 33 * MiB,
  /** Requests sentry-cli runs at once. */
  concurrency: 2,
  /** Seconds sentry-cli polls the assemble state at most (`--wait`). */
  maxWaitSeconds: 120,
  /** Bytes of one bundle as uploaded: it is assembled in memory. */
  maxBundleSize: 64 * MiB,
  /** Files (ZIP entries) in one bundle. */
  maxFilesPerBundle: 5000,
  /** Bytes of one file in a bundle, uncompressed. */
  maxFileSize: 64 * MiB,
  /** Bytes of all files of one bundle, uncompressed. */
  maxBundleUncompressed: 256 * MiB,
  /** Uncompressed to compressed size of one file above `compressionRatioFloor` bytes: more is a zip bomb. */
  maxCompressionRatio: 100,
  compressionRatioFloor: 1 * MiB,
  /** Bytes of `manifest.json`. */
  maxManifestSize: 8 * MiB,
  /** Bytes an organization keeps in uploaded chunks and bundle files together. */
  maxOrganizationBytes: 2048 * MiB,
} as const;

export const formatMiB = (bytes: number) => `${Math.round((bytes / MiB) * 10) / 10} MiB`;
