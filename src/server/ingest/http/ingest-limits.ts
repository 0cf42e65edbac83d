/**
 * Size and shape limits of the ingest path. Passed in by the caller (built once from the parsed
 * env), never read from the environment here. Defaults follow docs/ingest-protocol.md: smaller than Sentry
 * Relay's (1 MiB event, 200 MiB envelope) because one Node process holds the whole body in memory.
 */
export interface IngestLimits {
  /** Bytes read from the socket, before decompression. */
  maxCompressedBytes: number;
  /** Bytes produced by decompression; the bomb guard. */
  maxDecompressedBytes: number;
  /** Items per envelope. */
  maxItems: number;
  /** Payload bytes of one `event`/`transaction` item (or a legacy store body). */
  maxEventBytes: number;
  /** Nesting of `[`/`{` in any JSON line; checked by scanning, before JSON.parse. */
  maxJsonDepth: number;
}

/** The only definition of these defaults: env.ts's INGEST_MAX_* default to them. */
export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  maxCompressedBytes: 1024 * 1024,
  maxDecompressedBytes: 20 * 1024 * 1024,
  maxItems: 100,
  maxEventBytes: 1024 * 1024,
  maxJsonDepth: 64,
};

/**
 * Decompressed bytes of large bodies one client key may send per rate-limit window (60 s by
 * default): 64 MiB ≈ 1 MB/s, about what PGlite stores of the largest events (bench/README.md,
 * bench:stall), and three full-size (20 MiB) envelopes a minute. env.ts's INGEST_KEY_BYTE_RATE_LIMIT defaults to it.
 */
export const DEFAULT_KEY_BYTE_RATE_LIMIT = 64 * 1024 * 1024;

/** Limits of the normaliser: over-long values are trimmed, never rejected (battery A5). */
export interface TrimLimits {
  /** Messages, exception values, context lines, breadcrumb messages. */
  maxStringLength: number;
  /** Tag keys and values (Sentry caps tag values at 200 characters). */
  maxTagLength: number;
  maxBreadcrumbs: number;
  maxFramesPerException: number;
  maxExceptions: number;
}

export const DEFAULT_TRIM_LIMITS: TrimLimits = {
  maxStringLength: 8 * 1024,
  maxTagLength: 200,
  maxBreadcrumbs: 100,
  maxFramesPerException: 250,
  maxExceptions: 25,
};
