import type { NormalizedFrame, NormalizedOccurrence } from "../../shared/occurrence.types";

/**
 * A frame's file or a commit's file as a list of path segments, so both compare alike: URL
 * schemes the bundlers and SDKs prefix (`app:///`, `webpack://`, `file://`, `http(s)://host`),
 * webpack's `~/` and `./`, query strings and fragments, and Windows separators go.
 */
export function pathSegments(path: string): string[] {
  let rest = path.trim().replace(/\\/g, "/");
  rest = rest.replace(/[?#].*$/, "");
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(rest);
  if (scheme) {
    const [, name, after] = scheme;
    // A web URL's host is not part of the repository's path; app://, webpack:// and file:// carry none.
    rest = /^https?$/i.test(name) ? after.replace(/^[^/]*/, "") : after;
  }
  return rest.split("/").filter((segment) => segment !== "" && segment !== "." && segment !== "~");
}

/**
 * Does a commit's file name the frame's file? The shorter path must be the longer one's tail on
 * whole segments: `src/app.js` matches `/srv/site/src/app.js` (a server's absolute path) and
 * `app:///static/js/app.js` matches `web/static/js/app.js`, but `app.js` never matches
 * `src/myapp.js`. A `..` anywhere means the frame's path is relative to something unknown: its
 * tail after the last `..` is compared.
 */
export function pathsMatch(framePath: string, commitPath: string): boolean {
  const frame = afterParentSegments(pathSegments(framePath));
  const commit = pathSegments(commitPath);
  if (frame.length === 0 || commit.length === 0) return false;
  const [shorter, longer] = frame.length <= commit.length ? [frame, commit] : [commit, frame];
  const offset = longer.length - shorter.length;
  return shorter.every((segment, index) => segment === longer[offset + index]);
}

function afterParentSegments(segments: string[]): string[] {
  const last = segments.lastIndexOf("..");
  return last === -1 ? segments : segments.slice(last + 1);
}

/**
 * The files of an occurrence's in-app frames (every frame when the SDK marked none in-app), each
 * frame giving its `abs_path` and its `filename`: either may be the one a repository knows.
 */
export function stackFiles(occurrence: Pick<Partial<NormalizedOccurrence>, "exceptions" | "stacktrace">): string[] {
  const frames: NormalizedFrame[] = [...(occurrence.exceptions ?? []).flatMap((exception) => exception.frames ?? []), ...(occurrence.stacktrace ?? [])];
  const inApp = frames.filter((frame) => frame.inApp);
  const chosen = inApp.length > 0 ? inApp : frames;
  const files = new Set<string>();
  for (const frame of chosen) {
    for (const path of [frame.absPath, frame.filename]) if (path && pathSegments(path).length > 0) files.add(path);
  }
  return [...files];
}

/** The commit's files that one of the stack's files names. */
export function matchedFiles(stack: readonly string[], commitFiles: readonly string[]): string[] {
  return commitFiles.filter((commitFile) => stack.some((framePath) => pathsMatch(framePath, commitFile)));
}
