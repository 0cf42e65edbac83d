import { setFlagsFromString } from "node:v8";

/**
 * User patterns (data settings' `pattern` rules) run over every text of every event, so one
 * tenant's `(a+)+$` must not hold the event loop (or a payload worker) for seconds. They are
 * compiled for V8's linear-time engine (the `l` flag): matching costs at most pattern × input
 * steps, whatever the pattern. The engine refuses what it cannot run in linear time —
 * backreferences, lookaround, the `i`/`u` flags, counted repetitions above 16 — so such a pattern
 * is refused when saved, with this module's message.
 *
 * The flag is process-wide (worker threads share it) and only makes V8 recognise `l`; no other
 * regular expression changes engine.
 */
let enabled = false;
function enableLinearEngine() {
  if (enabled) return;
  setFlagsFromString("--enable-experimental-regexp-engine");
  enabled = true;
}

export const LINEAR_PATTERN_HINT =
  "patterns must run in linear time: no backreferences (\\1), lookarounds ((?=…), (?<=…)) or counted repetitions above 16 (write [A-Z0-9]+ rather than [A-Z0-9]{24})";

/** The pattern compiled global and linear-time, or the reason it cannot be. */
export function compileLinear(pattern: string): { ok: true; regex: RegExp } | { ok: false; message: string } {
  enableLinearEngine();
  try {
    new RegExp(pattern);
  } catch (error) {
    return { ok: false, message: `not a valid regular expression (${(error as Error).message})` };
  }
  try {
    return { ok: true, regex: new RegExp(pattern, "gl") };
  } catch {
    return { ok: false, message: LINEAR_PATTERN_HINT };
  }
}
