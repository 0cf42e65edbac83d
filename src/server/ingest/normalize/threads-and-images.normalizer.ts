import type { TrimLimits } from "../http/ingest-limits";
import type { NormalizedDebugImage, NormalizedThread } from "../../../shared/occurrence.types";
import { normalizeFrames } from "./exception.normalizer";
import { isPlainObject, readInteger, readString } from "./value-coercion";

const MAX_THREADS = 100;
const MAX_IMAGES = 500;
const MAX_MODULES = 500;

/**
 * The event's threads. The crashed thread (else the current one) keeps its stack — it is the one
 * people read; the others are listed by id and name only, which keeps a 60-thread native crash
 * small in storage.
 */
export function normalizeThreads(event: Record<string, unknown>, limits: TrimLimits): NormalizedThread[] {
  const raw = isPlainObject(event.threads) ? event.threads.values : event.threads;
  if (!Array.isArray(raw)) return [];
  const threads = raw.slice(0, MAX_THREADS).filter(isPlainObject);
  const withStack = threads.find((t) => t.crashed === true) ?? threads.find((t) => t.current === true);
  return threads.map((thread) => ({
    id: readString(thread.id, 64),
    name: readString(thread.name, 256),
    crashed: thread.crashed === true,
    current: thread.current === true,
    frames: thread === withStack ? normalizeFrames(thread.stacktrace, limits) : [],
  }));
}

/** `debug_meta.images`: the loaded binaries an address-only native stack is read against. */
export function normalizeDebugImages(event: Record<string, unknown>): NormalizedDebugImage[] {
  const meta = event.debug_meta;
  if (!isPlainObject(meta) || !Array.isArray(meta.images)) return [];
  return meta.images
    .slice(0, MAX_IMAGES)
    .filter(isPlainObject)
    .map((image) => ({
      type: readString(image.type, 32),
      // Apple images name the binary `name` and the id `uuid`; the others `code_file` / `debug_id`.
      name: readString(image.code_file ?? image.name, 1024),
      address: typeof image.image_addr === "number" ? `0x${image.image_addr.toString(16)}` : readString(image.image_addr, 64),
      size: readInteger(image.image_size),
      debugId: readString(image.debug_id ?? image.uuid, 128),
      codeId: readString(image.code_id, 128),
      debugFile: readString(image.debug_file, 1024),
      arch: readString(image.arch, 32),
    }));
}

const MODULE_NAME_MAX = 256;
const MODULE_VERSION_MAX = 128;

/** Whether every entry of `modules` is already what normalizeModules would keep, unchanged. */
function modulesAlreadyNormal(modules: Record<string, unknown>): boolean {
  let count = 0;
  for (const name in modules) {
    const version = modules[name];
    if (++count > MAX_MODULES || name === "" || name.length > MODULE_NAME_MAX) return false;
    if (typeof version !== "string" || version === "" || version.length > MODULE_VERSION_MAX) return false;
  }
  return true;
}

/**
 * `modules`: package name → version, as the SDK listed the application's dependencies. The usual
 * list (a hundred short strings, from JSON.parse, so plain own properties) is kept as it came:
 * copying it entry by entry was a measurable part of every Python event's ingest cost.
 */
export function normalizeModules(value: unknown): Record<string, string> {
  if (!isPlainObject(value)) return {};
  if (modulesAlreadyNormal(value)) return value as Record<string, string>;
  const entries: [string, string][] = [];
  for (const [name, version] of Object.entries(value)) {
    if (entries.length >= MAX_MODULES) break;
    const text = readString(version, MODULE_VERSION_MAX);
    if (name !== "" && text !== null) entries.push([name.slice(0, MODULE_NAME_MAX), text]);
  }
  return Object.fromEntries(entries);
}
