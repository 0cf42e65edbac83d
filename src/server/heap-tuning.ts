import { setFlagsFromString } from "node:v8";

/**
 * V8 lets the old generation grow to up to four times what survived the last full collection
 * before it collects again. Under ingest load, events waiting for their batch's commit survive a
 * scavenge or two and die in the old generation, so the heap swells to ~4× its live size (~200 MB
 * for ~50 MB live) and the process RSS with it. On PGlite, whose database shares the process,
 * capping the growth at 2× keeps peak RSS about 100 MB lower (under the 500 MB target) for a few
 * percent more CPU, measured in bench/README.md. V8 reads this flag at every full collection, so
 * setting it at start-up takes effect; an operator's own setting wins.
 */
export function limitHeapGrowth(nodeOptions: string, execArgv: string[] = process.execArgv) {
  const chosen = [...execArgv, nodeOptions].some((option) => option.includes("heap-growing-percent"));
  if (!chosen) setFlagsFromString("--heap-growing-percent=100");
}
