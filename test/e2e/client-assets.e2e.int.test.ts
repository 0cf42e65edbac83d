import { existsSync, readFileSync } from "node:fs";
import { request, type IncomingHttpHeaders } from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server";

const DIST = path.resolve(import.meta.dirname, "../../dist/client");

/**
 * Issue 37 item 13 against the real build (`npm run build`, made by the browser project's setup)
 * and the app as tests start it: the page names only files the build precompressed, and each is
 * sent compressed, immutable, and byte for byte what the build wrote.
 */
describe.runIf(existsSync(path.join(DIST, "index.html")))("the built client as the app serves it", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ serveClient: true });
  });
  afterAll(() => server?.close());

  function get(urlPath: string, acceptEncoding: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    const { hostname, port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const sent = request({ host: hostname, port, path: urlPath, headers: { "accept-encoding": acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      });
      sent.on("error", reject);
      sent.end();
    });
  }

  it("sends the page revalidated and its scripts and styles compressed and immutable", async () => {
    const page = await get("/dashboard/issues", "gzip, deflate, br");
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-cache");
    const html = page.headers["content-encoding"] === "br" ? brotliDecompressSync(page.body).toString() : page.body.toString();
    expect(html).toBe(readFileSync(path.join(DIST, "index.html"), "utf8"));

    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      const original = readFileSync(path.join(DIST, asset));
      const br = await get(asset, "gzip, deflate, br");
      expect(br.status, asset).toBe(200);
      expect(br.headers["cache-control"], asset).toBe("public, max-age=31536000, immutable");
      expect(br.headers["vary"], asset).toBe("Accept-Encoding");
      expect(br.headers["content-encoding"], asset).toBe("br");
      expect(brotliDecompressSync(br.body).equals(original), asset).toBe(true);
      const gzip = await get(asset, "gzip");
      expect(gzip.headers["content-encoding"], asset).toBe("gzip");
      expect(gunzipSync(gzip.body).equals(original), asset).toBe(true);
    }
  });

  it("keeps the issues page's first scripts to a few files (the shared code is not 70 small chunks)", () => {
    const html = readFileSync(path.join(DIST, "index.html"), "utf8");
    const preloads = [...html.matchAll(/rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1]);
    expect(preloads.length).toBeLessThanOrEqual(6);
    expect(preloads.some((href) => /\/vendor-[\w-]+\.js$/.test(href))).toBe(true);
    // recharts only where a chart is drawn, sonner with the first toast: neither in a file every page loads.
    const entry = html.match(/<script type="module"[^>]*src="([^"]+)"/)![1];
    for (const file of [entry, ...preloads]) {
      const code = readFileSync(path.join(DIST, file), "utf8");
      expect(code, file).not.toMatch(/from"\.\/charts-/);
      expect(code, file).not.toContain("data-sonner-toaster");
    }
  });
});
