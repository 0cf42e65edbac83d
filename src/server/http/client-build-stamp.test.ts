import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { staleReason, writeBuildStamp } from "./client-build-stamp";

/** A repository's shape in a temporary folder: client sources, a lockfile and a built client. */
describe("dist/client staleness (npm start builds when it is stale)", () => {
  let root: string;
  const file = (relative: string, content = "x") => {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), content);
  };
  const age = (relative: string, secondsAgo: number) => {
    const when = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(path.join(root, relative), when, when);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "faultline-stamp-"));
    for (const source of ["src/client/main.tsx", "src/client/index.html", "src/shared/enums.ts", "public/favicon.svg", "vite.config.ts"]) {
      file(source);
      age(source, 60);
    }
    file("package-lock.json", '{"lockfileVersion":3}');
    age("package-lock.json", 60);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("is stale when dist/client is missing or has no stamp (a bare vite build)", () => {
    expect(staleReason(root)).toBe("dist/client is missing");
    file("dist/client/index.html");
    expect(staleReason(root)).toBe("dist/client has no build stamp");
    writeBuildStamp(root);
    expect(staleReason(root)).toBeNull();
  });

  it("is stale when a client, shared or public file or the config is newer than the build", () => {
    file("dist/client/index.html");
    writeBuildStamp(root);
    const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
    ["src/client/routes/new-screen.tsx", "src/shared/enums.ts", "public/favicon.svg", "vite.config.ts"].forEach((source, index) => {
      // Each edit is newer than the last build; each rebuild newer than that edit.
      file(source, "changed");
      utimesSync(path.join(root, source), later(20 * index + 10), later(20 * index + 10));
      expect(staleReason(root), source).toBe("client sources changed since the last build");
      writeBuildStamp(root);
      utimesSync(path.join(root, "dist/client/.faultline-build.json"), later(20 * index + 15), later(20 * index + 15));
      expect(staleReason(root), source).toBeNull();
    });
  });

  it("is stale when the dependencies changed (the stamp records the lockfile)", () => {
    file("dist/client/index.html");
    writeBuildStamp(root);
    file("package-lock.json", '{"lockfileVersion":3,"packages":{"react":"20"}}');
    age("package-lock.json", 60);
    expect(staleReason(root)).toBe("dependencies changed since the last build");
  });
});
