import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressDirectory } from "./client-precompress";
import { chooseEncoding, serveBuiltClient } from "./client-static";
import { securityHeaders } from "./security-headers";

/**
 * Issue 37 item 13: the built client is sent as the `.br` or `.gz` sibling the build step made,
 * by Accept-Encoding, with cache headers by kind (hashed asset or not). A dist/client of the
 * build's shape in a temporary folder, precompressed by the build's own step, served by the same
 * middleware `npm start` mounts, behind the app's security headers, over loopback with node:http
 * (fetch would decompress and hide what was sent).
 */
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const HTML = `<!doctype html><html><head><title>Faultline</title>${"<meta name='x' content='padding the page past the compression floor'>".repeat(8)}<script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>`;
const SCRIPT = Array.from({ length: 200 }, (_, n) => `export function screen${n}(props){return props.issues.map((issue)=>issue.title+${n});}`).join("\n");
const TINY = "export const a=1;";
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${'<circle cx="16" cy="16" r="8"/>'.repeat(20)}</svg>`;

describe("the built client: precompressed siblings and cache headers", () => {
  let root: string;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "faultline-client-"));
    mkdirSync(path.join(root, "assets"));
    writeFileSync(path.join(root, "index.html"), HTML);
    writeFileSync(path.join(root, "assets/index-AbC123.js"), SCRIPT);
    writeFileSync(path.join(root, "assets/tiny-XyZ789.js"), TINY);
    writeFileSync(path.join(root, "favicon.svg"), ICON);
    writeFileSync(path.join(root, ".faultline-build.json"), '{"format":2}');
    await precompressDirectory(root);
    const app = express();
    app.use(securityHeaders({ development: false, https: false }));
    app.use(serveBuiltClient(root));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  function get(urlPath: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
    return new Promise((resolve, reject) => {
      // The path as written: a URL would resolve its `..` and `%2e%2e` segments before sending.
      const sent = request({ host: "127.0.0.1", port, path: urlPath, method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      });
      sent.on("error", reject);
      sent.end();
    });
  }

  it("writes .br and .gz siblings at build time, none for a file too small to gain", () => {
    for (const file of ["index.html", "assets/index-AbC123.js", "favicon.svg"]) {
      expect(brotliDecompressSync(readFileSync(path.join(root, `${file}.br`))).toString(), file).toBe(readFileSync(path.join(root, file), "utf8"));
      expect(gunzipSync(readFileSync(path.join(root, `${file}.gz`))).toString(), file).toBe(readFileSync(path.join(root, file), "utf8"));
    }
    expect(existsSync(path.join(root, "assets/tiny-XyZ789.js.br"))).toBe(false);
    expect(existsSync(path.join(root, "assets/tiny-XyZ789.js.gz"))).toBe(false);
  });

  it("sends brotli to a browser that accepts it, with the sibling's length, and a hashed asset immutable for a year", async () => {
    const answer = await get("/assets/index-AbC123.js", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["vary"]).toBe("Accept-Encoding");
    expect(answer.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(answer.body).toString()).toBe(SCRIPT);
  });

  it("sends gzip where brotli is not accepted, and the file as is where nothing compressed is", async () => {
    const gzip = await get("/assets/index-AbC123.js", { "accept-encoding": "gzip, deflate" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).toString()).toBe(SCRIPT);
    for (const accept of [undefined, "identity", "br;q=0, gzip;q=0", "deflate"]) {
      const plain = await get("/assets/index-AbC123.js", accept === undefined ? {} : { "accept-encoding": accept });
      expect(plain.headers["content-encoding"], accept).toBeUndefined();
      expect(plain.headers["vary"], accept).toBe("Accept-Encoding");
      expect(Number(plain.headers["content-length"]), accept).toBe(SCRIPT.length);
      expect(plain.body.toString(), accept).toBe(SCRIPT);
    }
  });

  it("chooses by the client's weights, brotli first on a tie", () => {
    expect(chooseEncoding("gzip, br", ["br", "gzip"])).toBe("br");
    expect(chooseEncoding("br;q=0.5, gzip", ["br", "gzip"])).toBe("gzip");
    expect(chooseEncoding("br;q=0, *", ["br", "gzip"])).toBe("gzip");
    expect(chooseEncoding("*", ["br", "gzip"])).toBe("br");
    expect(chooseEncoding("BR", ["gzip"])).toBe("identity");
    expect(chooseEncoding("gzip;q=0", ["br", "gzip"])).toBe("identity");
    expect(chooseEncoding("", ["br", "gzip"])).toBe("identity");
  });

  it("serves index.html for / and any screen, revalidated (no-cache) and compressed, and answers 304 to its ETag", async () => {
    for (const screen of ["/", "/index.html", "/dashboard/issues", "/dashboard/issues/0b7c", "/dashboard/releases/shop%401.4.0"]) {
      const answer = await get(screen, { "accept-encoding": "br" });
      expect(answer.status, screen).toBe(200);
      expect(answer.headers["cache-control"], screen).toBe("no-cache");
      expect(answer.headers["content-type"], screen).toMatch(/^text\/html/);
      expect(answer.headers["content-encoding"], screen).toBe("br");
      expect(answer.headers["content-security-policy"], screen).toContain("script-src 'self'");
      expect(brotliDecompressSync(answer.body).toString(), screen).toBe(HTML);
    }
    const first = await get("/dashboard/issues", { "accept-encoding": "br" });
    const etag = first.headers["etag"]!;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await get("/dashboard/issues", { "accept-encoding": "br", "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // Another encoding is another representation: its own ETag, so a cache never mixes them.
    const gzip = await get("/dashboard/issues", { "accept-encoding": "gzip", "if-none-match": etag });
    expect(gzip.status).toBe(200);
    expect(gzip.headers["etag"]).not.toBe(etag);
  });

  it("leaves the document-only security headers off scripts, not off documents or SVG", async () => {
    const script = await get("/assets/index-AbC123.js", { "accept-encoding": "br" });
    expect(script.headers["x-content-type-options"]).toBe("nosniff");
    for (const name of ["content-security-policy", "x-frame-options", "cross-origin-opener-policy", "permissions-policy"]) {
      expect(script.headers[name], name).toBeUndefined();
    }
    const icon = await get("/favicon.svg", { "accept-encoding": "br" });
    expect(icon.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(icon.headers["content-encoding"]).toBe("br");
    expect(icon.headers["cache-control"]).toBe("no-cache");
    expect(icon.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(icon.headers["x-frame-options"]).toBe("DENY");
  });

  it("sends a file without siblings as is, without Vary", async () => {
    const answer = await get("/assets/tiny-XyZ789.js", { "accept-encoding": "br, gzip" });
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.headers["vary"]).toBeUndefined();
    expect(answer.body.toString()).toBe(TINY);
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const answer = await get("/assets/index-AbC123.js", { "accept-encoding": "br" }, "HEAD");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(Number(answer.headers["content-length"])).toBe(readFileSync(path.join(root, "assets/index-AbC123.js.br")).length);
    expect(answer.body.length).toBe(0);
  });

  it("answers 404 for dotfiles, paths out of the folder and missing files, never the page", async () => {
    for (const miss of [
      "/.faultline-build.json",
      "/assets/missing-123.js",
      "/%2e%2e/%2e%2e/package.json",
      "/%2E%2E/README.md",
      "/assets/..%2f..%2fpackage.json",
      "/assets/%00.js",
    ]) {
      const answer = await get(miss, { "accept-encoding": "br" });
      expect(answer.status, miss).toBe(404);
      expect(answer.body.toString(), miss).toBe("Not found");
    }
  });
});
