/**
 * Security battery — development-mode exposure of the project folder ("Security hardening" item
 * 2) and the unbundled client ("Accounts and screens" item 13).
 *
 * The server is started exactly as a user starts it (`npm start`, `npm run dev`), with its data
 * in a fresh folder under ./data — the default data folder, inside the repository, where the
 * generated auth-secret lives. Cases, over HTTP against the running server:
 * - `npm start` runs no Vite middleware: `/@fs/<absolute path>/auth-secret`, repository files and
 *   source files answer 404 and never their content; pages get the built, minified bundle (no
 *   HMR client, no absolute paths); `..` never leaves dist/client;
 * - `npm run dev` keeps Vite with hot reload (its socket upgrades on the server's own port), but
 *   `server.fs` serves the client sources only: the data folder, the server sources and the
 *   repository root are refused.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/app-process";
import { hasChromium, launchBrowser, newPage } from "../helpers/browser";

/** Opens a page in Chromium; the errors it logs (an HMR client without a socket logs one). */
async function openPage(url: string) {
  const browser = await launchBrowser();
  try {
    const { page, problems } = await newPage(browser);
    let requests = 0;
    page.on("request", () => requests++);
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    await page.goto(url, { waitUntil: "networkidle" });
    await page
      .getByRole("button", { name: /sign in/i })
      .first()
      .waitFor();
    // The HMR client gives up on a missing socket a moment after the load.
    await page.waitForTimeout(1500);
    return { problems, requests };
  } finally {
    await browser.close();
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const STARTUP_MS = 150_000;

interface Started {
  url: string;
  port: number;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

/** Runs an npm script in its own process group (npm → sh → tsx → node), so stop() ends all of it. */
async function startScript(script: "start" | "dev"): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = path.join(ROOT, "data", `security-${script}-${randomBytes(4).toString("hex")}`);
  // A clean environment: no NODE_ENV/CLIENT_MODE from the caller, and none of Vitest's variables
  // (vite.config.ts drops the client plugins under VITEST).
  const child: ChildProcess = spawn("npm", ["run", "--silent", script], {
    cwd: ROOT,
    detached: true,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: "127.0.0.1", API_URL: url, PGLITE_DATA_DIR: dataDir, LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + STARTUP_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, port, dataDir, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`npm run ${script} did not start:\n${output}`);
}

async function get(url: string) {
  const response = await fetch(url);
  return { status: response.status, text: await response.text(), type: response.headers.get("content-type") ?? "" };
}

/** An HTTP upgrade to Vite's hot-reload socket; resolves with the status the server answers. */
function upgrade(port: number, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      path: `/?token=${encodeURIComponent(token)}`,
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": randomBytes(16).toString("base64"),
        "sec-websocket-protocol": "vite-hmr",
      },
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("npm start serves the built client and nothing else", () => {
  let app: Started;
  let secret: string;
  beforeAll(async () => {
    app = await startScript("start");
    secret = readFileSync(path.join(app.dataDir, "auth-secret"), "utf8").trim();
  }, STARTUP_MS + 30_000);
  afterAll(() => app?.stop());

  it("refuses /@fs/ paths to the data folder and the repository", async () => {
    for (const target of [path.join(app.dataDir, "auth-secret"), path.join(ROOT, "package.json"), path.join(ROOT, "src/server/env.ts")]) {
      const answer = await get(`${app.url}/@fs${target}`);
      expect(answer.status, target).toBe(404);
      expect(answer.text).not.toContain(secret);
      expect(answer.text).not.toContain("faultline");
    }
  });

  it("refuses source files, and never leaves dist/client", async () => {
    for (const file of [
      "/src/server/env.ts",
      "/src/client/main.tsx",
      "/main.tsx",
      "/vite.config.ts",
      "/%2e%2e/package.json",
      "/..%2fpackage.json",
      "/assets/..%2f..%2f..%2fpackage.json",
      "/.faultline-build.json",
    ]) {
      const answer = await get(`${app.url}${file}`);
      expect(answer.status, file).toBe(404);
      expect(answer.text, file).not.toMatch(/parseEnv|createRoot|defineConfig|"scripts"|"dependencies"/);
    }
  });

  it("serves pages the minified bundle, without Vite's HMR client or absolute paths", async () => {
    const page = await get(`${app.url}/dashboard/issues`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("/@vite/client");
    expect(page.text).not.toContain("/main.tsx");
    const scripts = [...page.text.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const bundle = await get(`${app.url}${script}`);
      expect(bundle.status).toBe(200);
      expect(bundle.text).not.toContain(ROOT);
      expect(bundle.text).not.toContain("import.meta.hot");
      // Minified: a production bundle has few, very long lines.
      expect(bundle.text.length / bundle.text.split("\n").length).toBeGreaterThan(500);
    }
  });

  it.skipIf(!hasChromium)("loads a page in a browser without errors (no HMR client looking for a socket)", async () => {
    const { problems, requests } = await openPage(`${app.url}/auth/login`);
    expect(problems).toEqual([]);
    // Unbundled, the same page took ~130 module requests.
    expect(requests).toBeLessThan(60);
  });

  it("logs JSON lines only (no Vite output)", () => {
    const lines = app.output().split("\n").filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  });
});

describe("npm run dev keeps Vite's hot reload and serves client sources only", () => {
  let app: Started;
  let secret: string;
  beforeAll(async () => {
    app = await startScript("dev");
    secret = readFileSync(path.join(app.dataDir, "auth-secret"), "utf8").trim();
  }, STARTUP_MS + 30_000);
  afterAll(() => app?.stop());

  it("refuses the data folder, server sources and the repository root through /@fs/", async () => {
    expect(existsSync(path.join(app.dataDir, "auth-secret"))).toBe(true);
    for (const target of [
      path.join(app.dataDir, "auth-secret"),
      path.join(app.dataDir, "PG_VERSION"),
      path.join(ROOT, "package.json"),
      path.join(ROOT, "src/server/env.ts"),
    ]) {
      const answer = await get(`${app.url}/@fs${target}`);
      expect(answer.status, target).toBe(403);
      expect(answer.text).not.toContain(secret);
    }
    for (const file of ["/src/server/env.ts", "/../package.json", "/../../data/auth-secret"]) {
      const answer = await get(`${app.url}${file}`);
      expect(answer.text, file).not.toMatch(/parseEnv|"scripts"/);
      expect(answer.text).not.toContain(secret);
    }
  });

  it("serves the client sources and upgrades the HMR socket on the server's own port", async () => {
    const main = await get(`${app.url}/main.tsx`);
    expect(main.status).toBe(200);
    const client = await get(`${app.url}/@vite/client`);
    expect(client.status).toBe(200);
    const token = /const wsToken = "([^"]+)"/.exec(client.text)?.[1];
    expect(token).toBeTruthy();
    expect(await upgrade(app.port, token!)).toBe(101);
  });

  it.skipIf(!hasChromium)("loads a page whose HMR client connects (no socket error)", async () => {
    const { problems } = await openPage(`${app.url}/auth/login`);
    expect(problems).toEqual([]);
  });

  it("logs JSON lines only (Vite's messages too)", () => {
    const lines = app.output().split("\n").filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  });
});
