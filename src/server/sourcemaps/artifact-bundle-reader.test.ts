import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { writeBundle, writeZip } from "../../../test/helpers/zip-writer";
import { ARTIFACT_LIMITS } from "./artifact-limits";
import { readArtifactBundle, type BundleFile, type Limits } from "./artifact-bundle-reader";

const DEBUG_ID = "8F3A1C2E-4B5D-4E6F-8A9B-0C1D2E3F4A5B";

async function read(bundle: Buffer, limits: Limits = ARTIFACT_LIMITS) {
  const stored: { file: BundleFile; text: string; sha1: string }[] = [];
  const manifest = await readArtifactBundle(bundle, async (file, bytes, sha1) => void stored.push({ file, text: bytes.toString("utf8"), sha1 }), limits);
  return { manifest, stored };
}

describe("reading artifact bundles", () => {
  it("reads the manifest and every file it names, header names in any case", async () => {
    const bundle = writeBundle(
      [
        { path: "files/_/_/app.js", type: "minified_source", url: "~/app.js", headers: { "Debug-Id": DEBUG_ID, Sourcemap: "app.js.map" }, data: "f()" },
        { path: "files/_/_/app.js.map", type: "source_map", url: "~/app.js.map", headers: { "debug-id": DEBUG_ID.replace(/-/g, "") }, data: "{}" },
      ],
      { debug_id: "00000000-0000-4000-8000-000000000001", release: "1.4.0" },
    );
    const { manifest, stored } = await read(bundle);
    expect(manifest.release).toBe("1.4.0");
    expect(manifest.files.map((file) => [file.type, file.debugId, file.sourceMap])).toEqual([
      ["minified_source", DEBUG_ID.toLowerCase(), "app.js.map"],
      ["source_map", DEBUG_ID.toLowerCase(), null],
    ]);
    expect(stored.map((entry) => entry.text)).toEqual(["f()", "{}"]);
    expect(stored[0].sha1).toBe(createHash("sha1").update("f()").digest("hex"));
  });

  it("refuses ../ and absolute names before storing anything", async () => {
    for (const name of ["../evil.js", "files/../../evil.js", "/etc/passwd"]) {
      const bundle = writeZip(
        [
          { name: "manifest.json", data: JSON.stringify({ files: {} }) },
          { name, data: "x" },
        ],
        { sysb: true },
      );
      await expect(read(bundle), name).rejects.toThrow(/outside itself/);
    }
  });

  it("refuses zip bombs: a file inflating past its declared size, and an honest one past the ratio", async () => {
    const zeros = new Uint8Array(2 * 1024 * 1024);
    const honest = writeBundle([{ path: "files/_/_/a.js", type: "source", url: "~/a.js", data: "x" }]);
    const liar = writeZip(
      [
        { name: "manifest.json", data: JSON.stringify({ files: { "files/_/_/a.js": { type: "source", url: "~/a.js" } } }) },
        { name: "files/_/_/a.js", data: zeros, declaredSize: 10 },
      ],
      { sysb: true },
    );
    expect((await read(honest)).stored).toHaveLength(1);
    await expect(read(liar)).rejects.toThrow(/zip bomb/);
    const ratio = writeBundle([{ path: "files/_/_/a.js", type: "source", url: "~/a.js", data: zeros }]);
    await expect(read(ratio)).rejects.toThrow(/100 times its compressed size/);
  });

  it("refuses too many files, bad manifests and what is not a bundle", async () => {
    const many = writeZip(
      Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, data: "x" })),
      { sysb: true },
    );
    await expect(read(many, { ...ARTIFACT_LIMITS, maxFilesPerBundle: 10 })).rejects.toThrow("The bundle holds 11 files; at most 10 are accepted per bundle");
    await expect(read(writeZip([{ name: "manifest.json", data: "{" }], { sysb: true }))).rejects.toThrow("manifest.json is not valid JSON");
    await expect(read(writeZip([{ name: "manifest.json", data: '{"files": []}' }], { sysb: true }))).rejects.toThrow(/not an artifact bundle manifest/);
    await expect(read(writeZip([{ name: "a", data: "x" }], { sysb: true }))).rejects.toThrow("The bundle has no manifest.json");
    await expect(read(writeBundle([{ path: "a", type: "source", url: "~/a", headers: { "debug-id": "nope" }, data: "x" }]))).rejects.toThrow(
      /invalid debug-id/,
    );
    await expect(read(Buffer.from("hello world"))).rejects.toThrow(/Not an artifact bundle/);
  });
});
