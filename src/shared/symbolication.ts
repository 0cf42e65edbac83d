import type { FrameSymbolication } from "./occurrence.types";

export type SymbolicationReason = Exclude<FrameSymbolication, "mapped">;

/**
 * What each reason a JavaScript frame is not (fully) mapped tells the user to check, shown beside
 * the frame in the stack trace. The reasons are defined in src/server/sourcemaps/frame-symbolication.ts.
 */
export const SYMBOLICATION_REASON_LABELS: Record<SymbolicationReason, string> = {
  no_debug_id: "Not mapped: the event names no debug ID for this file and no release artifact matches its URL",
  bundle_not_found: "Not mapped: no source map was uploaded for this file's debug ID or release",
  no_map_for_file: "Not mapped: the uploaded bundle has this file but no source map for it",
  no_mapping_at_position: "Not mapped: the source map has no mapping at this line and column",
  source_missing: "Mapped, but the source map carries no source text for this file (no context lines)",
  map_invalid: "Not mapped: the uploaded source map could not be read",
};
