/**
 * Issue 37 item 7, the path from the trial to production, against the real server process:
 * every missing or invalid setting in one message, each with its fix (the trial's data folder
 * naming the working key's file); progress lines on a first start; and the client built in a child
 * process, so the server does not keep Vite's memory (1.42 GB → 0.90 GB RSS after a first start).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureClientBuilt } from "../../src/server/http/client-build";
import { staleReason } from "../../src/server/http/client-build-stamp";
import { createLogger, type Logger } from "../../src/server/logger";
import { startAppProcess, type AppProcess } from "../helpers/app-process";

const ROOT = path.resolve(import.meta.dirname, "../..");
const folder = mkdtempSync(path.join(tmpdir(), "faultline-startup-"));
const started: AppProcess[] = [];
afterAll(async () => {
  for (const app of started) {
    app.child.kill("SIGTERM");
    await app.exited;
  }
  rmSync(folder, { recursive: true, force: true });
});

/** Runs main.ts (what `npm run serve` runs) expecting it to refuse; answers its exit code and output. */
function refusedStart(env: Record<string, string>): { code: number | null; output: string } {
  const run = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "src/server/main.ts")], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("start-up messages (real server process)", () => {
  it("reports every missing or invalid setting at once, each with its fix, naming the trial's key file", () => {
    const trial = path.join(folder, "trial-data");
    // What a trial (`npm start`) leaves in its data folder.
    mkdirSync(trial);
    writeFileSync(path.join(trial, "secrets-key"), `1:${"ab".repeat(32)}`);
    writeFileSync(path.join(trial, "auth-secret"), "cd".repeat(32));
    const { code, output } = refusedStart({
      NODE_ENV: "production",
      PGLITE_DATA_DIR: trial,
      DEPLOYMENT_MODE: "FAULTLINE_CLOUD",
      INGEST_WORKERS: "many",
      CLIENT_MODE: "none",
    });
    expect(code).toBe(1);
    expect(output).toContain("Invalid environment configuration");
    // One message, every problem: before, each start named one (three failed starts on an empty folder).
    expect(output.match(/Invalid environment configuration/g)).toHaveLength(1);
    expect(output).toContain("INGEST_WORKERS:");
    for (const key of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_PLUS_PRICE_ID"]) {
      expect(output).toContain(`${key}: required when DEPLOYMENT_MODE is FAULTLINE_CLOUD`);
    }
    expect(output).toContain("SMTP_URL: required when NODE_ENV is production; set SMTP_URL=smtp://");
    const keyFile = path.join(trial, "secrets-key");
    expect(output).toContain(`SECRETS_KEY: required when NODE_ENV is production; the trial's working key`);
    expect(output).toContain(`SECRETS_KEY="$(cat ${keyFile})"`);
    expect(output).toContain(`AUTH_SECRET="$(cat ${path.join(trial, "auth-secret")})"`);
    expect(output).not.toContain("faultline listening");
  }, 60_000);

  it("on an empty folder, names the three production settings in one start with how to make each", () => {
    const { code, output } = refusedStart({ NODE_ENV: "production", PGLITE_DATA_DIR: path.join(folder, "empty"), CLIENT_MODE: "none" });
    expect(code).toBe(1);
    expect(output).toContain("AUTH_SECRET: required when NODE_ENV is production; generate one with AUTH_SECRET=$(openssl rand -hex 32)");
    expect(output).toContain("SECRETS_KEY: required when NODE_ENV is production; generate one with SECRETS_KEY=1:$(openssl rand -hex 32)");
    expect(output).toContain("SMTP_URL: required when NODE_ENV is production");
    expect(existsSync(path.join(folder, "empty"))).toBe(false);
  }, 60_000);

  it("prints progress on a first start: the new embedded database, the migrations, then listening", async () => {
    const dataDir = path.join(folder, "first-start");
    const app = await startAppProcess({ PGLITE_DATA_DIR: dataDir, LOG_LEVEL: "info", CLIENT_MODE: "none" });
    started.push(app);
    const messages = app
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { msg: string; database?: string });
    const order = ["opening the database", "applying database migrations", "database ready", "faultline listening"];
    const seen = messages.map((line) => line.msg).filter((msg) => order.includes(msg));
    expect(seen).toEqual(order);
    expect(messages.find((line) => line.msg === "opening the database")?.database).toContain("first start");
  }, 120_000);

  it("builds a missing client in a child process, and says so when the build fails", async () => {
    // A scratch repository shape and a builder standing for `npm run build` (the real one rewrites
    // the shared dist/client, which other suites are serving): the build must run in another process.
    const root = mkdtempSync(path.join(tmpdir(), "faultline-client-build-"));
    symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"));
    const builder = path.join(root, "builder.ts");
    writeFileSync(
      builder,
      `import { mkdirSync, writeFileSync } from "node:fs";
import { writeBuildStamp } from ${JSON.stringify(path.join(ROOT, "src/server/http/client-build-stamp.ts"))};
if (process.env.BUILD_FAILS === "1") process.exit(3);
mkdirSync("dist/client", { recursive: true });
writeFileSync("dist/client/index.html", String(process.pid));
writeBuildStamp(process.cwd());
`,
    );
    const lines: { msg: string; builderPid?: number }[] = [];
    const logger = { ...createLogger("silent"), info: (msg: string, fields?: Record<string, unknown>) => lines.push({ msg, ...fields }) };
    try {
      expect(staleReason(root)).toBe("dist/client is missing");
      await ensureClientBuilt(logger as unknown as Logger, { root, entry: builder });
      const built = lines.find((line) => line.msg === "client built");
      expect(built?.builderPid).toBeGreaterThan(0);
      expect(built?.builderPid).not.toBe(process.pid);
      // The pid the log names is the process that wrote the build.
      expect(readFileSync(path.join(root, "dist/client/index.html"), "utf8")).toBe(String(built?.builderPid));
      expect(staleReason(root)).toBeNull();

      rmSync(path.join(root, "dist"), { recursive: true });
      process.env.BUILD_FAILS = "1";
      await expect(ensureClientBuilt(logger as unknown as Logger, { root, entry: builder })).rejects.toThrow(
        "the client build failed (exit 3); run `npm run build` to see why",
      );
    } finally {
      delete process.env.BUILD_FAILS;
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});
