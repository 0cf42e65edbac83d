/**
 * Battery A3 at the decoder level: decompression bombs are cut off at the limit while streaming.
 * The 1 GiB of zeros is never allocated: it is generated lazily and compressed on the fly, so the
 * test also proves the decoder stops pulling input once the limit has passed.
 */
import { Readable, type Transform } from "node:stream";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeBody, type DecodeStats } from "../../src/server/ingest/http/body-decoder";
import { IngestError } from "../../src/server/ingest/http/ingest-error";
import { DEFAULT_INGEST_LIMITS } from "../../src/server/ingest/http/ingest-limits";

const GIB = 1024 * 1024 * 1024;
const SLACK = 64 * 1024;

function lazyZeros(total: number, counter: { produced: number }): Readable {
  const chunk = Buffer.alloc(64 * 1024);
  return new Readable({
    read() {
      if (counter.produced >= total) return void this.push(null);
      counter.produced += chunk.length;
      this.push(chunk);
    },
  });
}

const compressors: [string, () => Transform][] = [
  ["gzip", () => zlib.createGzip({ level: 1 })],
  ["deflate", () => zlib.createDeflate({ level: 1 })],
  ["br", () => zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })],
];

describe("decompression bombs (1 GiB of zeros)", () => {
  it.each(compressors)("%s is cut off at the decompressed limit", async (coding, createCompressor) => {
    const limits = DEFAULT_INGEST_LIMITS;
    const counter = { produced: 0 };
    const body = lazyZeros(GIB, counter).pipe(createCompressor());
    const stats: DecodeStats = { compressedBytes: 0, decompressedBytes: 0 };

    const started = performance.now();
    const error = await decodeBody(body, coding, limits, stats).then(
      () => null,
      (e: unknown) => e,
    );
    const elapsed = performance.now() - started;
    body.destroy();
    console.log(
      `bomb ${coding}: stopped after ${elapsed.toFixed(0)} ms, inflated ${stats.decompressedBytes} bytes ` +
        `(limit ${limits.maxDecompressedBytes}), read ${stats.compressedBytes} compressed, generated ${counter.produced} zeros`,
    );

    expect(error).toBeInstanceOf(IngestError);
    expect(error).toMatchObject({ code: "too_large", status: 413 });
    expect(stats.decompressedBytes).toBeGreaterThan(limits.maxDecompressedBytes);
    expect(stats.decompressedBytes).toBeLessThanOrEqual(limits.maxDecompressedBytes + SLACK);
    // The bomb was never expanded, nor even generated, in full.
    expect(counter.produced).toBeLessThan(GIB);
  });

  it("a small compressed limit stops a bomb before any inflation matters", async () => {
    const counter = { produced: 0 };
    const body = lazyZeros(GIB, counter).pipe(zlib.createGzip({ level: 1 }));
    const stats: DecodeStats = { compressedBytes: 0, decompressedBytes: 0 };
    const limits = { maxCompressedBytes: 4 * 1024, maxDecompressedBytes: GIB };
    const error = await decodeBody(body, "gzip", limits, stats).then(
      () => null,
      (e: unknown) => e,
    );
    body.destroy();
    expect(error).toMatchObject({ code: "too_large" });
    expect(stats.compressedBytes).toBeLessThanOrEqual(limits.maxCompressedBytes + SLACK);
  });

  it("gzip-of-gzip of a bomb is decoded once: the inner layer stays compressed", async () => {
    const inner = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const outer = zlib.gzipSync(inner);
    const decoded = await decodeBody(Readable.from([outer]), "gzip", DEFAULT_INGEST_LIMITS);
    expect(decoded.equals(inner)).toBe(true);
    expect(decoded.length).toBeLessThan(DEFAULT_INGEST_LIMITS.maxDecompressedBytes);
  });

  it("zstd is refused with 415", async () => {
    const error = await decodeBody(Readable.from([Buffer.from([0x28, 0xb5, 0x2f, 0xfd])]), "zstd", DEFAULT_INGEST_LIMITS).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "unsupported_encoding", status: 415 });
  });
});
