import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);

describe("postgres.js null-socket patch", () => {
  it("is applied to the installed driver (npm install runs it as postinstall)", () => {
    const root = path.resolve(path.dirname(require.resolve("postgres")), "../..");
    const source = readFileSync(path.join(root, "src/connection.js"), "utf8");
    expect(source).toContain("/* faultline: null-socket guard */");
    expect(source.match(/nextWriteTimer = null\n    chunk = null/g)).toHaveLength(2);
  });
});
