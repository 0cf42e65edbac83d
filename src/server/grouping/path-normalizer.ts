/**
 * Frame locations without the parts that change between builds, deploys and hosts, so a new
 * release does not open new issues: URL origin and scheme (webpack:///, file://, app:///), query
 * strings, package-manager and virtualenv prefixes, deploy roots, version and content-hash segments.
 */
const SCHEME_AND_HOST = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i;
const DEPLOY_ROOTS = /^\/(?:app|usr\/src\/app|var\/task|var\/www(?:\/html)?|srv|workspace|code)\//;
const PACKAGE_DIRS = ["node_modules/", "site-packages/", "dist-packages/"];
// A path segment that is only a release marker: 1.2.3, v2.0.1-beta, 20240101120000, a git sha.
const VERSION_SEGMENT = /^(?:v?\d+(?:\.\d+){1,3}(?:[-+][\w.]{0,32})?|\d{6,}|(?=[0-9a-f]{0,39}\d)[0-9a-f]{7,40})$/i;
// main.3f2a1b9c.chunk.js, index-CtWK0fHM.js, chunk-4XKZ7QJD.mjs: a token of 8+ chars with a digit
// followed by a further dot (so the extension itself is never taken for a hash).
const HASHED_NAME = /[.-](?=[A-Za-z0-9_]{0,63}\d)[A-Za-z0-9_]{8,64}(?=\.)/g;

function stripPackagePrefix(path: string): string {
  for (const dir of PACKAGE_DIRS) {
    const at = path.lastIndexOf(dir);
    if (at >= 0) return `${dir}${path.slice(at + dir.length)}`;
  }
  return path;
}

export function normalizeFramePath(raw: string): string {
  let path = raw.replace(/\\/g, "/");
  path = path.split(/[?#]/, 1)[0];
  path = path.replace(SCHEME_AND_HOST, "");
  path = stripPackagePrefix(path);
  path = path.replace(DEPLOY_ROOTS, "");
  const segments = path
    .split("/")
    .filter((s) => s !== "" && s !== "." && !VERSION_SEGMENT.test(s))
    .map((s) => s.replace(/@\d[\w.+-]*$/, "")); // pnpm's .pnpm/x@1.2.3
  const last = segments.length - 1;
  if (last >= 0) segments[last] = segments[last].replace(HASHED_NAME, "");
  return segments.filter((s) => s !== ".pnpm").join("/");
}

/** Module names can carry the same noise as paths (hashed chunk names, versions). */
export function normalizeModule(raw: string): string {
  return raw.replace(/@\d[\w.+-]*/g, "").replace(/[.-](?=[A-Za-z0-9_]{0,63}\d)[A-Za-z0-9_]{8,64}$/, "");
}

const ANONYMOUS = new Set(["?", "<anonymous>", "anonymous", "<unknown>"]);

/** Function names without async/new prefixes and `[as alias]` suffixes V8 adds per call site. */
export function normalizeFunction(raw: string): string {
  const name = raw
    .replace(/^(?:async |new )+/, "")
    .replace(/ \[as [^\]]{0,256}\]$/, "")
    .trim();
  return ANONYMOUS.has(name) ? "" : name;
}
