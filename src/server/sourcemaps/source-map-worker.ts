import { parentPort, workerData } from "node:worker_threads";
import { buildMapIndex } from "./map-index-build";
import { ParsedMapCache } from "./parsed-map-cache";
import { MapInvalidError, originalPositions, parseSourceMap, type ParsedSourceMap } from "./parsed-source-map";
import type { SourceMapLimits } from "./source-map-limits";
import type { LookupAnswer, LookupRequest } from "./source-map-workers";

/**
 * The symbolicator's worker thread (source-map-workers.ts): parses maps and answers positions, so a
 * cold 20 MB map costs this thread, never the main one. Parsed maps stay here, in the cache;
 * maps found invalid are remembered by key so a bad upload is not read and parsed on every event.
 * Requests are answered one at a time, in order: the main thread relies on it to tell which map a
 * crash happened on.
 */
const port = parentPort!;
const limits = (workerData as { limits: SourceMapLimits }).limits;
const cache = new ParsedMapCache(limits.cacheBytes);
const invalid = new Map<string, string>();
const MAX_INVALID_REMEMBERED = 1000;

port.on("message", (request: LookupRequest) => {
  const reply = answer(request);
  // An index's parts are moved to the main thread, not copied.
  port.postMessage(reply, reply.status === "indexed" ? reply.parts.map((part) => part.buffer as ArrayBuffer) : []);
});
port.postMessage({ ready: true });

function answer({ id, key, input, positions, index }: LookupRequest): LookupAnswer {
  const known = invalid.get(key);
  if (known !== undefined) return { id, status: "invalid", reason: known };
  let parsed: ParsedSourceMap | undefined = cache.get(key);
  if (parsed === undefined) {
    if (input === undefined) return { id, status: "missing" };
    try {
      parsed = parseSourceMap(input, limits);
    } catch (error) {
      const reason = error instanceof MapInvalidError ? error.message : `the map could not be read: ${String(error)}`;
      if (invalid.size >= MAX_INVALID_REMEMBERED) invalid.delete(invalid.keys().next().value!);
      invalid.set(key, reason);
      return { id, status: "invalid", reason };
    }
    cache.set(key, parsed);
  }
  if (index) return { id, ...buildMapIndex(parsed) };
  return { id, status: "ok", debugId: parsed.debugId, positions: originalPositions(parsed, positions, limits) };
}
