import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { IngestError } from "./ingest-error";

export type ContentCoding = "identity" | "gzip" | "deflate" | "br";

export interface BodyLimits {
  maxCompressedBytes: number;
  maxDecompressedBytes: number;
}

/**
 * Maps a `Content-Encoding` header to the one coding we undo. An empty value and `UTF-8` (which
 * some SDKs put there by mistake) mean identity. Stacked codings ("gzip, br") are refused: no SDK
 * sends them and each extra layer is another bomb multiplier.
 */
export function resolveContentCoding(header: string | string[] | undefined | null): ContentCoding {
  const raw = Array.isArray(header) ? header.join(",") : (header ?? "");
  const codings = raw
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity" && c !== "utf-8" && c !== "utf8");
  if (codings.length === 0) return "identity";
  if (codings.length === 1) {
    const [coding] = codings;
    if (coding === "gzip" || coding === "x-gzip") return "gzip";
    if (coding === "deflate" || coding === "br") return coding;
  }
  throw new IngestError("unsupported_encoding", `unsupported content-encoding: ${raw.slice(0, 64)}`);
}

/**
 * HTTP "deflate" is meant to be zlib-wrapped but some clients send raw deflate. A zlib header has
 * CM=8 in the low nibble and (CMF*256+FLG) divisible by 31. Raw deflate never starts that way in
 * practice: a low nibble of 8 would be a non-final stored block with a non-zero padding bit, which
 * encoders do not emit. So two bytes decide, without buffering or retrying the stream.
 */
export function looksLikeZlibHeader(head: Buffer): boolean {
  return head.length >= 2 && (head[0] & 0x0f) === 8 && ((head[0] << 8) | head[1]) % 31 === 0;
}

function createInflater(coding: Exclude<ContentCoding, "identity">, head: Buffer) {
  // Small output chunks keep the overshoot past the limit small (≤ one chunk).
  const options = { chunkSize: 16 * 1024 };
  if (coding === "gzip") return zlib.createGunzip(options);
  if (coding === "br") return zlib.createBrotliDecompress(options);
  return looksLikeZlibHeader(head) ? zlib.createInflate(options) : zlib.createInflateRaw(options);
}

export interface DecodeStats {
  compressedBytes: number;
  decompressedBytes: number;
}

/**
 * Reads an HTTP request body and undoes its content coding, counting compressed and decompressed
 * bytes WHILE streaming so that a decompression bomb is cut off at the limit instead of being
 * inflated into memory. Only one layer is undone: gzip-of-gzip yields the inner gzip bytes, which
 * the envelope parser then rejects as malformed.
 *
 * Rejects with IngestError `unsupported_encoding` (415), `too_large` (413) or `malformed` (400).
 * On abort the source is paused and left to the caller: destroying an HTTP request would also
 * kill the socket the 413 must be written to.
 */
export function decodeBody(
  source: Readable,
  contentEncoding: string | string[] | undefined | null,
  limits: BodyLimits,
  stats: DecodeStats = { compressedBytes: 0, decompressedBytes: 0 },
): Promise<Buffer> {
  let coding: ContentCoding;
  try {
    coding = resolveContentCoding(contentEncoding);
  } catch (error) {
    return Promise.reject(error);
  }

  return new Promise<Buffer>((resolve, reject) => {
    const output: Buffer[] = [];
    let inflater: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress | null = null;
    let pendingHead: Buffer | null = null;
    let settled = false;

    const detach = () => {
      source.off("data", onInput);
      source.off("end", onSourceEnd);
      source.off("error", onSourceError);
      source.pause();
      inflater?.removeAllListeners("data");
      inflater?.destroy();
    };
    const fail = (error: IngestError) => {
      if (settled) return;
      settled = true;
      detach();
      reject(error);
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      detach();
      resolve(Buffer.concat(output, stats.decompressedBytes));
    };
    const tooLarge = (what: string, limit: number) => new IngestError("too_large", `body exceeds ${limit} ${what} bytes`, { ...stats });

    const onOutput = (chunk: Buffer) => {
      if (settled) return;
      stats.decompressedBytes += chunk.length;
      if (stats.decompressedBytes > limits.maxDecompressedBytes) {
        fail(tooLarge("decompressed", limits.maxDecompressedBytes));
        return;
      }
      output.push(chunk);
    };

    const startInflater = (head: Buffer) => {
      const created = createInflater(coding as Exclude<ContentCoding, "identity">, head);
      created.on("data", onOutput);
      created.on("end", finish);
      created.on("error", () => fail(new IngestError("malformed", `invalid ${coding} body`, { ...stats })));
      created.on("drain", () => {
        if (!settled) source.resume();
      });
      inflater = created;
    };

    const feed = (chunk: Buffer) => {
      if (!inflater) {
        // Deflate needs two bytes to pick zlib vs raw; chunks may be a single byte.
        pendingHead = pendingHead ? Buffer.concat([pendingHead, chunk]) : chunk;
        if (coding === "deflate" && pendingHead.length < 2) return;
        startInflater(pendingHead);
        chunk = pendingHead;
        pendingHead = null;
      }
      // Backpressure: a tiny compressed chunk may expand a lot; wait for zlib before reading on.
      if (!inflater!.write(chunk)) source.pause();
    };

    function onInput(data: Buffer | string) {
      if (settled) return;
      const chunk = typeof data === "string" ? Buffer.from(data) : data;
      stats.compressedBytes += chunk.length;
      if (stats.compressedBytes > limits.maxCompressedBytes) {
        fail(tooLarge("compressed", limits.maxCompressedBytes));
        return;
      }
      if (coding === "identity") onOutput(chunk);
      else feed(chunk);
    }
    function onSourceEnd() {
      if (settled) return;
      if (coding === "identity") return finish();
      if (!inflater) {
        if (!pendingHead) return finish(); // empty body: nothing to inflate
        startInflater(pendingHead);
        inflater!.write(pendingHead);
        pendingHead = null;
      }
      inflater!.end();
    }
    function onSourceError() {
      fail(new IngestError("malformed", "request body stream failed", { ...stats }));
    }

    source.on("data", onInput);
    source.on("end", onSourceEnd);
    source.on("error", onSourceError);
    source.resume();
  });
}
