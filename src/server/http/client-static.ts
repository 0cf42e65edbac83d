import { createReadStream, type Stats } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Request, RequestHandler, Response } from "express";
import { DOCUMENT_ONLY_HEADERS } from "./security-headers";
import { COMPRESSED_ENCODINGS, type CompressedEncoding } from "./client-precompress";

/**
 * Serves the built client (dist/client): each file as its precompressed `.br` or `.gz` sibling
 * when the request accepts it (client-precompress.ts makes them at build time), else as is.
 * Vite names everything under /assets/ by its content's hash, so those are cached for a year
 * and never revalidated; index.html and the public files keep their names across builds, so
 * browsers revalidate them (an ETag answers 304). Screens get index.html (the SPA fallback); any
 * other miss is a 404, so no request for a file ever answers 200 with the page.
 */
/** Files a page only ever loads as a script or stylesheet, never opens as a document (unlike HTML or SVG). */
const SUBRESOURCE_ONLY = new Set([".js", ".mjs", ".css"]);

export const IMMUTABLE = "public, max-age=31536000, immutable";
export const REVALIDATE = "no-cache";

/** Accept-Encoding's weights: `{ br: 1, gzip: 0.5 }`, and `*` for anything not named. */
export function parseAcceptEncoding(header: string | undefined): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0);
  }
  return weights;
}

/**
 * The encoding to send among those on disk: the client's highest weight wins, brotli before gzip
 * on a tie (it is smaller), identity when nothing compressed is acceptable. An empty header
 * accepts only identity (RFC 9110 §12.5.3).
 */
export function chooseEncoding(header: string | undefined, available: readonly CompressedEncoding[]): CompressedEncoding | "identity" {
  const weights = parseAcceptEncoding(header);
  let best: CompressedEncoding | "identity" = "identity";
  let bestWeight = 0;
  for (const encoding of available) {
    const weight = weights.get(encoding) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) [best, bestWeight] = [encoding, weight];
  }
  return best;
}

/**
 * Only a screen's address gets index.html: no file extension, nothing Vite-shaped (`/@fs/…`).
 * Everything under /dashboard/ is a screen whatever its last segment: a release's page is named by
 * its version (`/dashboard/releases/shop@1.4.0`), and no file is built there.
 */
function isScreenPath(urlPath: string): boolean {
  if (urlPath.startsWith("/api/") || urlPath.startsWith("/@")) return false;
  if (urlPath.startsWith("/dashboard/")) return true;
  return !path.posix.basename(urlPath).includes(".");
}

/** The file a URL path names inside `root`, or null: no dotfile (the build stamp), no `..`, no escape. */
function fileFor(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  const segments = decoded.split("/").filter(Boolean);
  if (segments.length === 0 || segments.some((segment) => segment.startsWith("."))) return null;
  const file = path.join(root, ...segments);
  return file.startsWith(root + path.sep) ? file : null;
}

async function fileStats(file: string): Promise<Stats | null> {
  const stats = await stat(file).catch(() => null);
  return stats?.isFile() ? stats : null;
}

async function send(req: Request, res: Response, file: string, stats: Stats, cacheControl: string) {
  const siblings = await Promise.all(
    COMPRESSED_ENCODINGS.map(async ({ name, extension }) => ({ name, file: file + extension, stats: await fileStats(file + extension) })),
  );
  const available = siblings.filter((sibling) => sibling.stats !== null);
  const encoding = chooseEncoding(
    req.get("accept-encoding"),
    available.map((sibling) => sibling.name),
  );
  const chosen = available.find((sibling) => sibling.name === encoding);
  const body = chosen ? { file: chosen.file, stats: chosen.stats! } : { file, stats };

  res.type(path.extname(file));
  if (SUBRESOURCE_ONLY.has(path.extname(file))) for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name);
  res.setHeader("Cache-Control", cacheControl);
  // A cache keeps one copy per encoding; a file with no sibling is the same for every request.
  if (available.length > 0) res.vary("Accept-Encoding");
  if (chosen) res.setHeader("Content-Encoding", encoding);
  res.setHeader("ETag", `"${body.stats.size.toString(16)}-${Math.trunc(body.stats.mtimeMs).toString(16)}"`);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.setHeader("Content-Length", body.stats.size);
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  await pipeline(createReadStream(body.file), res);
}

/** The built client in `root` (an absolute path): its files, then the SPA fallback. */
export function serveBuiltClient(root: string): RequestHandler {
  const index = path.join(root, "index.html");
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    void (async () => {
      const file = fileFor(root, req.path);
      const stats = file && (await fileStats(file));
      if (file && stats) return send(req, res, file, stats, req.path.startsWith("/assets/") ? IMMUTABLE : REVALIDATE);
      if (!isScreenPath(req.path)) return void res.status(404).type("text").send("Not found");
      const indexStats = await fileStats(index);
      if (!indexStats) return void res.status(404).type("text").send("Not found");
      return send(req, res, index, indexStats, REVALIDATE);
    })().catch((error: unknown) => {
      // A client that goes away mid-file ends the pipeline; nothing is left to answer.
      if (res.headersSent) res.destroy();
      else next(error);
    });
  };
}
