import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

/**
 * The packages main.ts imports on demand (each holds 20-25 MB): none may be reachable from it
 * through static value imports, or every server would load them at start-up again.
 */
const ON_DEMAND = [/^stripe$/, /^ai$/, /^@ai-sdk\/(?!provider$)/, /^@aws-sdk\//];

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?([\s\S]*?)\s*from\s+"([^"]+)"|(?:^|\n)\s*import\s+"([^"]+)"/g;

/** Whether an import statement's specifiers are all `type` ones (erased when compiled). */
function typeOnly(typeKeyword: string | undefined, specifiers: string): boolean {
  if (typeKeyword) return true;
  const named = /^\{([\s\S]*)\}$/.exec(specifiers.trim());
  if (!named) return false;
  const parts = named[1]
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  return parts.length > 0 && parts.every((part) => part.startsWith("type "));
}

function resolveLocal(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")])
    if (existsSync(candidate) && candidate.match(/\.tsx?$/)) return candidate;
  return null;
}

/** Packages reachable from `entry` through value imports, each with the file importing it. */
function packagesLoadedBy(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const specifier = match[3] ?? match[4];
      if (match[3] && typeOnly(match[1], match[2])) continue;
      if (specifier.startsWith(".")) {
        const local = resolveLocal(file, specifier);
        if (local) pending.push(local);
      } else if (!packages.has(specifier)) packages.set(specifier, path.relative(process.cwd(), file));
    }
  }
  return packages;
}

it("the server's start-up imports none of the packages it loads on demand", () => {
  const loaded = packagesLoadedBy(path.resolve(import.meta.dirname, "main.ts"));
  // The walk itself must see the server's graph (express, drizzle, the database drivers).
  expect([...loaded.keys()]).toEqual(expect.arrayContaining(["express", "drizzle-orm", "postgres"]));
  const onDemand = [...loaded].filter(([name]) => ON_DEMAND.some((pattern) => pattern.test(name))).map(([name, by]) => `${name} (imported by ${by})`);
  expect(onDemand).toEqual([]);
});
