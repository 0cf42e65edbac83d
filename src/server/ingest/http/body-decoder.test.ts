import { Readable } from "node:stream";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeBody, looksLikeZlibHeader, resolveContentCoding, type DecodeStats } from "./body-decoder";
import { IngestError } from "./ingest-error";

const LIMITS = { maxCompressedBytes: 1024 * 1024, maxDecompressedBytes: 4 * 1024 * 1024 };
const ENVELOPE = Buffer.from('{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}\n{"type":"event"}\n{"message":"héllo"}\n');

/** A request body arriving in chunks of `size` bytes, like a socket would deliver it. */
function chunked(buf: Buffer, size = 7): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) parts.push(buf.subarray(i, i + size));
  return Readable.from(parts);
}

async function rejection(promise: Promise<unknown>): Promise<IngestError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IngestError);
  return error as IngestError;
}

describe("resolveContentCoding", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["identity", "identity"],
    ["UTF-8", "identity"],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    [" GZIP ", "gzip"],
    ["deflate", "deflate"],
    ["br", "br"],
  ])("%j → %s", (header, coding) => {
    expect(resolveContentCoding(header)).toBe(coding);
  });

  it.each(["zstd", "compress", "gzip, br", "lz4"])("refuses %j with 415", (header) => {
    let error: unknown;
    try {
      resolveContentCoding(header);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: "unsupported_encoding", status: 415 });
  });
});

describe("decodeBody", () => {
  it("passes identity bodies through", async () => {
    expect(await decodeBody(chunked(ENVELOPE), undefined, LIMITS)).toEqual(ENVELOPE);
    expect(await decodeBody(chunked(ENVELOPE), "UTF-8", LIMITS)).toEqual(ENVELOPE);
  });

  it.each([
    ["gzip", zlib.gzipSync],
    ["x-gzip", zlib.gzipSync],
    ["deflate", zlib.deflateSync],
    ["br", zlib.brotliCompressSync],
  ] as const)("decodes %s in small chunks", async (coding, compress) => {
    expect(await decodeBody(chunked(compress(ENVELOPE), 1), coding, LIMITS)).toEqual(ENVELOPE);
  });

  it("falls back to raw deflate when the zlib wrapper is missing", async () => {
    const raw = zlib.deflateRawSync(ENVELOPE);
    expect(looksLikeZlibHeader(raw)).toBe(false);
    expect(await decodeBody(chunked(raw, 1), "deflate", LIMITS)).toEqual(ENVELOPE);
  });

  it("decodes a multi-member gzip body", async () => {
    const body = Buffer.concat([zlib.gzipSync(ENVELOPE.subarray(0, 10)), zlib.gzipSync(ENVELOPE.subarray(10))]);
    expect(await decodeBody(chunked(body), "gzip", LIMITS)).toEqual(ENVELOPE);
  });

  it("returns an empty buffer for an empty body, whatever the coding", async () => {
    expect((await decodeBody(Readable.from([]), "gzip", LIMITS)).length).toBe(0);
    expect((await decodeBody(Readable.from([]), undefined, LIMITS)).length).toBe(0);
  });

  it("undoes one layer only: gzip-of-gzip yields the inner gzip bytes", async () => {
    const inner = zlib.gzipSync(ENVELOPE);
    const decoded = await decodeBody(chunked(zlib.gzipSync(inner)), "gzip", LIMITS);
    expect(decoded).toEqual(inner);
    expect(decoded[0]).toBe(0x1f);
  });

  it("rejects corrupt or truncated compressed bodies as malformed", async () => {
    const gz = zlib.gzipSync(ENVELOPE);
    expect(await rejection(decodeBody(chunked(gz.subarray(0, gz.length - 12)), "gzip", LIMITS))).toMatchObject({ code: "malformed", status: 400 });
    expect(await rejection(decodeBody(chunked(ENVELOPE), "gzip", LIMITS))).toMatchObject({ code: "malformed" });
    expect(await rejection(decodeBody(chunked(ENVELOPE), "br", LIMITS))).toMatchObject({ code: "malformed" });
  });

  it("rejects zstd with unsupported_encoding (415) without reading the body", async () => {
    const error = await rejection(decodeBody(chunked(ENVELOPE), "zstd", LIMITS));
    expect(error).toMatchObject({ code: "unsupported_encoding", status: 415 });
  });

  it("enforces the compressed limit on the bytes read", async () => {
    const body = Buffer.alloc(2000, 0x61);
    const stats: DecodeStats = { compressedBytes: 0, decompressedBytes: 0 };
    const error = await rejection(decodeBody(chunked(body, 100), undefined, { ...LIMITS, maxCompressedBytes: 1000 }, stats));
    expect(error).toMatchObject({ code: "too_large", status: 413 });
    expect(stats.compressedBytes).toBeLessThanOrEqual(1100);
  });

  it("enforces the decompressed limit on identity bodies too", async () => {
    const error = await rejection(decodeBody(chunked(Buffer.alloc(5000), 500), "", { ...LIMITS, maxDecompressedBytes: 4096 }));
    expect(error.code).toBe("too_large");
  });

  it("accepts a body of exactly the limit", async () => {
    const body = Buffer.alloc(4096, 0x62);
    const decoded = await decodeBody(chunked(zlib.gzipSync(body)), "gzip", { ...LIMITS, maxDecompressedBytes: 4096 });
    expect(decoded.length).toBe(4096);
  });

  it("turns a failing source stream into malformed", async () => {
    const source = new Readable({ read() {} });
    const promise = decodeBody(source, undefined, LIMITS);
    source.destroy(new Error("socket reset"));
    expect(await rejection(promise)).toMatchObject({ code: "malformed" });
  });
});
