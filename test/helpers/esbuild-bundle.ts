import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import vm from "node:vm";
import { defaultStackParser } from "@sentry/browser";
import { build } from "esbuild";
import { normalizeSentryEvent } from "../../src/server/ingest/normalize/event.normalizer";
import type { NormalizedOccurrence } from "../../src/shared/occurrence.types";

export interface Bundle {
  /** The minified script, ending with its `//# sourceMappingURL=` comment. */
  code: string;
  /** The source map esbuild wrote (`sources` relative to the script: `../src/price.ts`). */
  map: string;
}

/**
 * A real esbuild build of `files` (paths relative to a temporary project, e.g. `src/main.ts`):
 * bundled, minified, with a source map, as `dist/app.js`. `inlineMap` puts the map in the script
 * as a `data:` URL instead.
 */
export async function buildBundle(files: Record<string, string>, entry: string, options: { inlineMap?: boolean } = {}): Promise<Bundle> {
  const root = await mkdtemp(path.join(tmpdir(), "faultline-esbuild-"));
  try {
    for (const [name, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, name)), { recursive: true });
      await writeFile(path.join(root, name), content);
    }
    const result = await build({
      entryPoints: [path.join(root, entry)],
      bundle: true,
      minify: true,
      sourcemap: options.inlineMap ? "inline" : true,
      write: false,
      outfile: path.join(root, "dist/app.js"),
      format: "iife",
      logLevel: "silent",
    });
    const code = result.outputFiles.find((file) => file.path.endsWith(".js"))!.text;
    const map = result.outputFiles.find((file) => file.path.endsWith(".map"))?.text ?? "";
    return { code, map };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const PAGE_URL = "https://app.example/index.html";

/**
 * Runs the bundle as a browser would load it from `scriptUrl`, calls `call` (an expression of the
 * bundle's globals), and returns the stack of the error it throws.
 */
export function stackOfThrow(code: string, scriptUrl: string, call: string): string {
  const context = vm.createContext({});
  vm.runInContext(code, context, { filename: scriptUrl });
  try {
    vm.runInContext(call, context, { filename: PAGE_URL });
  } catch (error) {
    // Node puts the offending source line before the message, and the stack goes on into the test's
    // own frames (node:vm, vitest): a browser's starts at the message and ends at the page.
    const lines = (error as Error).stack!.split("\n");
    const message = lines.findIndex((line) => line.startsWith(`${(error as Error).name}:`));
    const page = lines.findIndex((line) => line.includes(PAGE_URL));
    return lines.slice(message, page + 1).join("\n");
  }
  throw new Error(`${call} did not throw`);
}

/**
 * The occurrence ingest would store for a `@sentry/browser` event carrying this stack: frames parsed
 * by the SDK's own stack parser, the event through the real normaliser.
 */
export function browserOccurrence(
  stack: string,
  event: { release?: string; dist?: string; debugImages?: { code_file: string; debug_id: string }[] } = {},
): NormalizedOccurrence {
  const frames = defaultStackParser(stack);
  return normalizeSentryEvent({
    event_id: "0123456789abcdef0123456789abcdef",
    platform: "javascript",
    ...(event.release ? { release: event.release } : {}),
    ...(event.dist ? { dist: event.dist } : {}),
    exception: { values: [{ type: "Error", value: stack.split("\n")[0], stacktrace: { frames } }] },
    ...(event.debugImages ? { debug_meta: { images: event.debugImages.map((image) => ({ type: "sourcemap", ...image })) } } : {}),
  });
}
