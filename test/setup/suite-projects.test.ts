import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The unit project's suites share a worker's module cache (`isolate: false` in vite.config.ts) and
 * get no migrated database template: that holds only while no suite named like a unit test
 * (`*.test.ts`, not `*.int.test.ts`) opens a database, a server or a process.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const DATABASE_REACH =
  /\b(createTestDatabase|startTestServer|startBillingServer|startWafTestServer|createDatabase|startAppProcess|TEST_DATABASE_URL|spawnSync|spawn)\s*\(/;

function suites(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => path.join(folder, file));
}

describe("the unit project", () => {
  it("holds no suite that reaches a database, a server or a child process", async () => {
    const { default: config } = await import("../../vite.config");
    const processSuites = new Set<string>();
    for (const project of config.test?.projects ?? []) {
      if (typeof project === "object" && "test" in project && project.test?.name === "process") {
        for (const file of project.test.include ?? []) processSuites.add(file);
      }
    }
    const offenders = [...suites("src"), ...suites("test")]
      .filter((file) => !file.endsWith(".int.test.ts") && !processSuites.has(file))
      .filter((file) => DATABASE_REACH.test(readFileSync(path.join(ROOT, file), "utf8")));
    expect(offenders, "name them *.int.test.ts (or list them as process suites in vite.config.ts)").toEqual([]);
  });
});
