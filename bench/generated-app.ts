/**
 * A generated application to bundle: N modules of ten functions each, every one with a throw — a
 * bundle of many functions, like an app's (bench:symbolicate, bench:ingest --source-maps).
 */
export function generatedSources(modules: number): Record<string, string> {
  const files: Record<string, string> = {};
  let index = "";
  for (let m = 0; m < modules; m++) {
    let source = "";
    for (let f = 0; f < 10; f++) {
      source +=
        `export function module${m}Function${f}(inputValue: number, otherArgument: string): string {\n` +
        `  const intermediateResult = inputValue * ${f + 1} + otherArgument.length;\n` +
        `  if (intermediateResult > ${1000 + f}) {\n` +
        `    throw new Error("too large in module ${m} function ${f}: " + intermediateResult);\n` +
        `  }\n` +
        `  return otherArgument.repeat(intermediateResult % 3) + String(intermediateResult);\n` +
        `}\n`;
    }
    files[`src/m${m}.ts`] = source;
    index += `export * from "./m${m}";\n`;
  }
  files["src/index.ts"] = `${index}(globalThis as any).app = ${JSON.stringify("loaded")};\n`;
  return files;
}

/** The stack positions (1-based line and column) of every `throw` in the minified code. */
export function throwSites(code: string): { lineno: number; colno: number }[] {
  const sites: { lineno: number; colno: number }[] = [];
  let lineno = 1;
  let lineStart = 0;
  let scanned = 0;
  for (let at = code.indexOf("throw new Error"); at !== -1; at = code.indexOf("throw new Error", at + 1)) {
    for (let newline = code.indexOf("\n", scanned); newline !== -1 && newline < at; newline = code.indexOf("\n", newline + 1)) {
      lineno++;
      lineStart = newline + 1;
    }
    scanned = at;
    sites.push({ lineno, colno: at - lineStart + 1 });
  }
  return sites;
}
