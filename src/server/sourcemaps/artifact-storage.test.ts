import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { artifactStorage } from "./artifact-storage";

describe("artifact storage", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-artifacts-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const bytes = new TextEncoder().encode("//# sourceMappingURL=app.js.map");
  const sha1 = createHash("sha1").update(bytes).digest("hex");

  it("keeps bytes in the row by default", async () => {
    const storage = artifactStorage({});
    expect(await storage.write("blobs", "org", sha1, bytes)).toBe(bytes);
    expect(await storage.read("blobs", "org", sha1, bytes)).toBe(bytes);
  });

  it("keeps them as content-addressed files under ARTIFACT_DIR, per organization, and removes them", async () => {
    const storage = artifactStorage({ ARTIFACT_DIR: dir });
    expect(await storage.write("blobs", "org/../x", sha1, bytes)).toBeNull();
    const file = path.join(dir, "blobs", encodeURIComponent("org/../x"), sha1.slice(0, 2), sha1);
    expect(existsSync(file)).toBe(true);
    expect(Buffer.from(await storage.read("blobs", "org/../x", sha1, null)).toString()).toBe("//# sourceMappingURL=app.js.map");
    await expect(storage.read("blobs", "another-org", sha1, null)).rejects.toThrow();
    await storage.remove("blobs", "org/../x", [sha1]);
    expect(existsSync(file)).toBe(false);
    await expect(storage.write("blobs", "org", "../../etc", bytes)).rejects.toThrow("not a SHA-1");
  });
});
