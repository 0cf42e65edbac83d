import type { NormalizedFrame } from "../../../shared/occurrence.types";

const MAX_LINES = 200;
const MAX_LINE_LENGTH = 2048;

function isInApp(path: string): boolean {
  return !path.includes("/node_modules/") && !path.startsWith("node:") && !path.startsWith("internal/");
}

function basename(path: string): string {
  return (
    path
      .replace(/^file:\/\//, "")
      .split(/[\\/]/)
      .pop() || path
  );
}

/** "file:line:col" split on the LAST two colons (paths and URLs contain colons too). */
function splitLocation(location: string): { path: string; lineno: number; colno: number } | null {
  const colAt = location.lastIndexOf(":");
  const lineAt = location.lastIndexOf(":", colAt - 1);
  if (lineAt <= 0) return null;
  const lineno = Number(location.slice(lineAt + 1, colAt));
  const colno = Number(location.slice(colAt + 1));
  if (!Number.isSafeInteger(lineno) || !Number.isSafeInteger(colno)) return null;
  return { path: location.slice(0, lineAt), lineno, colno };
}

/** One "    at fn (file:line:col)" / "    at file:line:col" line; string scanning, no regex backtracking. */
function parseLine(raw: string): NormalizedFrame | null {
  let line = raw.trim();
  if (!line.startsWith("at ") || line.length > MAX_LINE_LENGTH) return null;
  line = line.slice(3);
  if (line.startsWith("async ")) line = line.slice(6);
  let fn: string | null = null;
  let location = line;
  const open = line.lastIndexOf(" (");
  if (open > 0 && line.endsWith(")")) {
    fn = line.slice(0, open);
    location = line.slice(open + 2, -1);
  }
  const parsed = splitLocation(location);
  if (!parsed) return null; // "<anonymous>", "native": nothing to point at
  return {
    filename: basename(parsed.path),
    absPath: parsed.path,
    function: fn,
    module: null,
    lineno: parsed.lineno,
    colno: parsed.colno,
    inApp: isInApp(parsed.path),
    contextLine: null,
    preContext: [],
    postContext: [],
  };
}

/**
 * Frames from a V8 `Error.stack` string, for native `@traque/*` payloads that send the stack but no
 * frames. V8 lists the newest call first; frames are returned oldest first like every other source.
 */
export function parseV8Stack(stack: string): NormalizedFrame[] {
  return stack
    .split("\n", MAX_LINES)
    .map(parseLine)
    .filter((f): f is NormalizedFrame => f !== null)
    .reverse();
}
