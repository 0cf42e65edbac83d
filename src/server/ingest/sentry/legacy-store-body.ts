import zlib from "node:zlib";
import { looksLikeZlibHeader } from "../http/body-decoder";
import { IngestError } from "../http/ingest-error";

const BASE64_BODY = /^[A-Za-z0-9+/_\-=\s]+$/;

function firstNonSpace(buf: Buffer): number {
  for (const byte of buf) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return byte;
  }
  return -1;
}

/**
 * The legacy `/store/` endpoint receives one event JSON. Old raven clients did not use
 * Content-Encoding but sent the JSON base64-encoded, or zlib-compressed then base64-encoded. This
 * undoes that second, in-body layer (after `decodeBody` undid the HTTP one) and returns JSON bytes.
 * Inflation is capped at `maxDecompressedBytes` like the streaming decoder, so a base64 bomb is
 * cut off too. Throws IngestError `malformed` (400) or `too_large` (413).
 */
export function decodeLegacyStoreBody(body: Buffer, limits: { maxDecompressedBytes: number }): Buffer {
  const first = firstNonSpace(body);
  if (first === 0x7b /* { */) return body;
  if (first === -1) throw new IngestError("malformed", "empty store body");

  const text = body.toString("latin1");
  if (!BASE64_BODY.test(text)) throw new IngestError("malformed", "store body is neither JSON nor base64");
  const decoded = Buffer.from(text.replace(/\s+/g, ""), "base64");

  if (looksLikeZlibHeader(decoded)) {
    try {
      return zlib.inflateSync(decoded, { maxOutputLength: limits.maxDecompressedBytes });
    } catch (error) {
      if (error instanceof RangeError) {
        throw new IngestError("too_large", `store body exceeds ${limits.maxDecompressedBytes} decompressed bytes`);
      }
      throw new IngestError("malformed", "store body is not valid base64+zlib");
    }
  }
  if (firstNonSpace(decoded) === 0x7b) return decoded;
  throw new IngestError("malformed", "store body is neither JSON nor base64 JSON");
}
