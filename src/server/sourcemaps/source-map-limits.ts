/**
 * Every bound of symbolication, in one place. A source map is uploaded by whoever holds a token of
 * the project, so its size and shape are hostile until checked: these caps keep one map's cost (time
 * on the worker thread, memory in its heap) bounded whatever it claims.
 */
export const SOURCE_MAP_LIMITS = {
  /** A map (or a minified file read to find its inline map) larger than this is `map_invalid` unread. */
  maxMapBytes: 50 * 2 ** 20,
  /**
   * Generated lines a map may span (`;` in its mappings, or a section's offset plus its lines):
   * the parser allocates one array per line, so a map claiming 10^9 lines must be refused before it.
   */
  maxGeneratedLines: 2_000_000,
  /** Mapping segments (`,` and `;` separated) a map may hold: each becomes a small array in the heap. */
  maxSegments: 6_000_000,
  /** Parsed maps kept in the worker, counted in the bytes of the maps they were parsed from (LRU). */
  cacheBytes: 160 * 2 ** 20,
  /**
   * Parts of map indexes kept on the main thread (indexed-map-lookup.ts), counted in their decoded
   * JSON's length: the pages and source blocks recent events needed (LRU).
   */
  indexCacheBytes: 64 * 2 ** 20,
  /**
   * Answers for positions already looked up, on the main thread, counted in their characters: the
   * events of one defect repeat one stack, so most frames are answered without touching the index.
   */
  answerCacheBytes: 16 * 2 ** 20,
  /**
   * The worker's heap: past it the worker dies (and is replaced) rather than the process; what it was
   * parsing answers `map_invalid`.
   */
  workerHeapMb: 1024,
  /** Lookups a worker may hold; past it `symbolicate` throws SymbolicatorBusyError (the caller keeps the frames as sent). */
  maxQueuedLookups: 64,
  /** A lookup unanswered this long means the worker is stuck: it is replaced, and the map being parsed is `map_invalid`. */
  lookupTimeoutMs: 15_000,
  /** Source lines around the frame's line, each side. */
  contextLines: 5,
  /** A context line is cut to this many characters (a minified source line can be megabytes). */
  maxContextLineLength: 1_000,
} as const;

/** The same bounds as numbers (tests and the bench pass smaller ones). */
export type SourceMapLimits = { readonly [K in keyof typeof SOURCE_MAP_LIMITS]: number };
