/**
 * Why a JavaScript frame of a stored event shows its original source, or why not: stored on each
 * such frame (`NormalizedFrame.symbolication`), answered by the exception API and shown beside the
 * frame. Frames of other platforms carry none.
 */
export const SYMBOLICATION_REASONS = ["no_debug_id", "bundle_not_found", "no_map_for_file", "no_mapping_at_position", "source_missing", "map_invalid"] as const;
export type SymbolicationReason = (typeof SYMBOLICATION_REASONS)[number];
export type SymbolicationState = "mapped" | SymbolicationReason;

/** What each reason tells the user to check, in the stack trace. */
export const SYMBOLICATION_REASON_LABELS: Record<SymbolicationReason, string> = {
  no_debug_id: "Not mapped: the event names no debug ID for this file and no release artifact matches its URL",
  bundle_not_found: "Not mapped: no source map was uploaded for this file's debug ID or release",
  no_map_for_file: "Not mapped: the uploaded bundle has this file but no source map for it",
  no_mapping_at_position: "Not mapped: the source map has no mapping at this line and column",
  source_missing: "Mapped, but the source map carries no source text for this file (no context lines)",
  map_invalid: "Not mapped: the uploaded source map could not be read",
};

/** The frame as the SDK sent it, kept beside the mapped one for the "Minified" view. */
export interface RawFrame {
  filename: string | null;
  function: string | null;
  lineno: number | null;
  colno: number | null;
}
