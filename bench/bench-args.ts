/**
 * Command-line options shared by the bench:* scripts. `--smoke` runs a benchmark at a size that
 * only proves it still works (a few thousand rows, about a second of load, no timing targets), so
 * CI can run every benchmark on each change and a broken one fails there, not months later.
 */
export interface BenchArgs {
  smoke: boolean;
  write: boolean;
  /** A positive whole number given as `--name N`, else the fallback. */
  number(name: string, fallback: number): number;
}

export function parseBenchArgs(argv: string[]): BenchArgs {
  const smoke = argv.includes("--smoke");
  const write = argv.includes("--write");
  if (smoke && write) fail("--smoke runs are not measurements: they are never written to bench/README.md (drop --write)");
  return {
    smoke,
    write,
    number(name, fallback) {
      const at = argv.indexOf(name);
      if (at === -1) return fallback;
      const value = argv[at + 1];
      if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1) fail(`${name} needs a positive whole number (got ${value ?? "nothing"})`);
      return Number(value);
    },
  };
}

/** Bad usage: say what is wrong and stop with a non-zero exit code, before any work starts. */
export function fail(message: string): never {
  console.error(`bench: ${message}`);
  process.exit(2);
}
