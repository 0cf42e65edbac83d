import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

/**
 * The build step's second half: every text file of dist/client gets a `.br` and a `.gz` sibling,
 * made once at the highest levels (brotli 11, gzip 9), so the server never compresses per request
 * (client-static.ts picks a sibling by Accept-Encoding). A sibling that saves nothing is not
 * written, and neither is one for a file below MIN_BYTES: a response's headers outweigh the saving.
 */
export const COMPRESSED_ENCODINGS = [
  { name: "br", extension: ".br" },
  { name: "gzip", extension: ".gz" },
] as const;
export type CompressedEncoding = (typeof COMPRESSED_ENCODINGS)[number]["name"];

const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".html", ".svg", ".json", ".txt", ".map", ".webmanifest", ".xml"]);
const MIN_BYTES = 256;

const compressors: Record<CompressedEncoding, (input: Buffer) => Promise<Buffer>> = {
  br: (input) =>
    promisify(brotliCompress)(input, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: input.length,
      },
    }),
  gzip: (input) => promisify(gzip)(input, { level: constants.Z_BEST_COMPRESSION }),
};

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

export interface PrecompressSummary {
  files: number;
  bytes: number;
  /** Bytes of the siblings written, per encoding. */
  compressed: Record<CompressedEncoding, number>;
}

/** Writes the `.br` and `.gz` siblings of every compressible file under `dir`. */
export async function precompressDirectory(dir: string): Promise<PrecompressSummary> {
  const summary: PrecompressSummary = { files: 0, bytes: 0, compressed: { br: 0, gzip: 0 } };
  const candidates = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.has(path.extname(file)));
  for (const file of candidates) {
    if ((await stat(file)).size < MIN_BYTES) continue;
    const input = await readFile(file);
    summary.files++;
    summary.bytes += input.length;
    await Promise.all(
      COMPRESSED_ENCODINGS.map(async ({ name, extension }) => {
        const output = await compressors[name](input);
        if (output.length >= input.length) return;
        await writeFile(file + extension, output);
        summary.compressed[name] += output.length;
      }),
    );
  }
  return summary;
}
