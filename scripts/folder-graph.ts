/**
 * The import graph between the top-level folders of src/server, and how tangled it is.
 *
 * Nodes are the top-level folders under src/server; files directly in src/server count as ".".
 * There is an arrow A → B when a non-test .ts file in A imports (statically, `export … from`, or
 * with a dynamic `import()`, type-only imports included) a file in B, A ≠ B. Specifiers that
 * leave src/server (shared/, packages) are ignored.
 *
 * It prints:
 * (a) mutually importing pairs: unordered {A, B} with both A → B and B → A;
 * (b) the number of folders in the largest strongly connected component (SCC);
 * (c) arrows running back up: every folder gets a layer rank — the number of other folders it
 *     imports, fewest first (the most foundational folder is lowest), ties broken by name. Arrows
 *     between different SCCs follow the condensation's topological order and never count. An
 *     arrow A → B inside one SCC runs back up when B ranks above A: a lower folder imports a
 *     higher one. (In an acyclic graph the count is 0 by definition.)
 *
 * Run: npx tsx scripts/folder-graph.ts [--edges]
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

const SERVER = resolve(import.meta.dirname, "../src/server");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const folderOf = (file: string) => {
  const parts = relative(SERVER, file).split(sep);
  return parts.length === 1 ? "." : parts[0];
};

const edges = new Map<string, Set<string>>();
const folders = new Set<string>();
for (const file of sourceFiles(SERVER)) {
  const from = folderOf(file);
  folders.add(from);
  for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
    if (!fileName.startsWith(".")) continue;
    const target = resolve(dirname(file), fileName);
    if (!target.startsWith(SERVER + sep)) continue;
    const to = folderOf(target);
    if (to !== from) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
  }
}
/** The three figures of the graph restricted to `nodes`. */
function measure(nodes: Set<string>) {
  const out = (folder: string) => new Set([...(edges.get(folder) ?? [])].filter((to) => nodes.has(to)));

  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  function connect(folder: string) {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    onStack.add(folder);
    for (const next of out(folder)) {
      if (!index.has(next)) {
        connect(next);
        low.set(folder, Math.min(low.get(folder)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(folder, Math.min(low.get(folder)!, index.get(next)!));
    }
    if (low.get(folder) === index.get(folder)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== folder);
      components.push(component.sort());
    }
  }
  for (const folder of [...nodes].sort()) if (!index.has(folder)) connect(folder);
  const componentOf = new Map(components.flatMap((component, i) => component.map((folder) => [folder, i] as const)));

  const mutualPairs = [...nodes].sort().flatMap((a) => [...out(a)].filter((b) => a < b && out(b).has(a)).map((b) => `${a} ⇄ ${b}`));
  const rank = new Map([...nodes].sort((a, b) => out(a).size - out(b).size || a.localeCompare(b)).map((folder, position) => [folder, position] as const));
  const backArrows = [...nodes]
    .sort()
    .flatMap((a) => [...out(a)].filter((b) => componentOf.get(a) === componentOf.get(b) && rank.get(b)! > rank.get(a)!).map((b) => `${a} → ${b}`));
  const largest = components.reduce((best, component) => (component.length > best.length ? component : best), [] as string[]);
  const arrows = [...nodes].reduce((sum, folder) => sum + out(folder).size, 0);
  return { nodes: nodes.size, arrows, mutualPairs, largest, backArrows };
}

function print(title: string, figures: ReturnType<typeof measure>) {
  console.log(`${title}: ${figures.nodes} folders, ${figures.arrows} arrows`);
  console.log(`  (a) mutually importing folder pairs: ${figures.mutualPairs.length}`);
  console.log(`  (b) folders in the largest strongly connected component: ${figures.largest.length} (${figures.largest.join(" ")})`);
  console.log(`  (c) arrows running back up: ${figures.backArrows.length}`);
  if (process.argv.includes("--edges")) {
    console.log(`  mutual pairs:\n    ${figures.mutualPairs.join("\n    ")}`);
    console.log(`  back arrows:\n    ${figures.backArrows.join("\n    ")}`);
  }
}

print("src/server", measure(folders));
// The root files mix the top (main.ts, app.ts) with the bottom (errors.ts, logger.ts, context.ts), so
// they join every cycle; the same figures without them show how the folders themselves are layered.
print("src/server without its root files (.)", measure(new Set([...folders].filter((folder) => folder !== "."))));
