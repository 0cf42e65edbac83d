/**
 * The URL rules of the release + dist + URL path (no debug ids): which uploaded names a frame's file
 * may be stored under, how a minified file names its map, and how that name is resolved. sentry-cli
 * uploads `--url-prefix '~/assets'` files as `~/assets/app.js`: `~` stands for "any scheme and host".
 */

const TILDE_HOST = "tilde.invalid";

/**
 * The names to try for a frame's file, in order: the URL as the frame gives it, then (for a URL
 * with a scheme and host, or an absolute path) its `~/` form; each without its query string too.
 * `https://host/a/b.js?v=2` → `https://host/a/b.js?v=2`, `https://host/a/b.js`, `~/a/b.js?v=2`, `~/a/b.js`.
 */
export function urlCandidates(fileUrl: string): string[] {
  const candidates = [fileUrl, withoutQuery(fileUrl)];
  const tilde = tildeForm(fileUrl);
  if (tilde !== null) candidates.push(tilde, withoutQuery(tilde));
  return [...new Set(candidates)];
}

function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/** `https://host/a/b.js` → `~/a/b.js`; `app:///a/b.js` → `~/a/b.js`; `/srv/b.js` → `~/srv/b.js`; else null. */
function tildeForm(url: string): string | null {
  if (url.startsWith("~/")) return null;
  if (url.startsWith("/")) return `~${url}`;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  if (scheme === null) return null;
  const rest = url.slice(scheme[0].length);
  return `~${rest.startsWith("/") ? rest : `/${rest}`}`;
}

/** What a minified file says about its map: a URL (maybe relative), or an inline `data:` map (its bytes). */
export type MapReference = { url: string } | { inline: Uint8Array };

const MARKERS = ["//# ", "//@ ", "/*# ", "/*@ "];
const NEEDLE = "sourceMappingURL=";

/**
 * The last `//# sourceMappingURL=…` comment of a minified file (`//@` and `/*# … *\/` too), searched
 * from the end in the bytes: an inline map can be tens of megabytes and is never turned into a
 * string here. A `sourceMappingURL=` not preceded by a comment marker (a string in the code) is skipped.
 */
export function findSourceMappingUrl(bytes: Uint8Array): MapReference | null {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = text.lastIndexOf(NEEDLE);
  while (at !== -1) {
    const marker = at >= 4 ? text.subarray(at - 4, at).toString("latin1") : "";
    if (MARKERS.includes(marker)) {
      const start = at + NEEDLE.length;
      let end = start;
      while (end < text.length && !isEndOfValue(text, end)) end++;
      if (end > start) {
        const value = text.subarray(start, end);
        if (value.subarray(0, 5).toString("latin1") === "data:") return { inline: new Uint8Array(value) };
        return { url: value.toString("utf8") };
      }
    }
    at = at === 0 ? -1 : text.lastIndexOf(NEEDLE, at - 1);
  }
  return null;
}

function isEndOfValue(text: Buffer, at: number): boolean {
  const code = text[at];
  // newline, carriage return, space, tab, or the `*/` closing a block comment
  return code === 10 || code === 13 || code === 32 || code === 9 || (code === 42 && text[at + 1] === 47);
}

/**
 * A map reference resolved against the URL the minified file was found under, keeping the `~/` form:
 * (`app.js.map`, `~/assets/app.js`) → `~/assets/app.js.map`; (`../maps/app.js.map`,
 * `https://cdn/a/app.js`) → `https://cdn/maps/app.js.map`; an absolute reference stays as it is.
 */
export function resolveMapUrl(reference: string, fileUrl: string): string {
  const tilde = fileUrl.startsWith("~/") || !/^[a-z][a-z0-9+.-]*:/i.test(fileUrl);
  const base = fileUrl.startsWith("~/") ? `http://${TILDE_HOST}${fileUrl.slice(1)}` : tilde ? `http://${TILDE_HOST}/${fileUrl.replace(/^\/+/, "")}` : fileUrl;
  let resolved: URL;
  try {
    resolved = new URL(reference, base);
  } catch {
    return reference;
  }
  if (resolved.host === TILDE_HOST && resolved.protocol === "http:") {
    const path = `${decodeURI(resolved.pathname)}${resolved.search}`;
    // An absolute path given as the file's URL stays a path; `~/` and relative names stay `~/`.
    return fileUrl.startsWith("/") ? path : `~${path}`;
  }
  return resolved.href;
}
