/**
 * After a deploy, an open tab may ask for screen modules that no longer exist. Reloading fetches
 * the new build; the session-scoped flag makes sure a module that keeps failing shows the error
 * view instead of reloading forever (spec §2, general behaviour).
 */
const RELOAD_FLAG = "faultline-chunk-reload";

const CHUNK_ERROR_PATTERNS = [
  "Failed to fetch dynamically imported module",
  "error loading dynamically imported module",
  "Importing a module script failed",
  "Unable to preload CSS",
  "Failed to load module script",
];

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error ?? "");
  return message.includes("ChunkLoadError") || CHUNK_ERROR_PATTERNS.some((pattern) => message.includes(pattern));
}

/** Reloads the page once per session; returns false when it already tried. */
export function reloadOnceForChunkError(): boolean {
  try {
    if (window.sessionStorage.getItem(RELOAD_FLAG)) return false;
    window.sessionStorage.setItem(RELOAD_FLAG, String(Date.now()));
  } catch {
    // Without sessionStorage a reload could loop; show the error instead.
    return false;
  }
  window.location.reload();
  return true;
}

/** Called after a navigation rendered every screen module: the next failure may reload again. */
export function clearChunkReloadFlag() {
  try {
    window.sessionStorage.removeItem(RELOAD_FLAG);
  } catch {
    // Nothing to clear.
  }
}

/** Vite reports failed module preloads with this event; handle them like a failed import. */
export function listenForPreloadErrors() {
  window.addEventListener("vite:preloadError", (event) => {
    if (reloadOnceForChunkError()) event.preventDefault();
  });
}
