/**
 * Issue 37 item 7, the path from the trial to production, against the real server process:
 * every missing or invalid setting in one message, each with its fix (the trial's data folder
 * naming the working key's file); progress lines on a first start; and the client built in a child
 * process, so the server does not keep Vite's memory (its own process never maps Vite's native
 * bundler).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
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

  it("builds a missing client in a child process: the server's own process never maps Vite's native bundler", async () => {
    // A missing stamp makes `npm start` rebuild dist/client (client-build-stamp.ts).
    rmSync(path.join(ROOT, "dist/client/.faultline-build.json"), { force: true });
    const app = await startAppProcess({ PGLITE_DATA_DIR: "memory://", LOG_LEVEL: "info", CLIENT_MODE: "built" }, undefined, [], 240_000);
    started.push(app);
    const built = app
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { msg: string; builderPid?: number })
      .find((line) => line.msg === "client built");
    expect(built?.builderPid).toBeGreaterThan(0);
    expect(built?.builderPid).not.toBe(app.child.pid);
    expect(existsSync(path.join(ROOT, "dist/client/.faultline-build.json"))).toBe(true);
    // Vite 8 bundles with rolldown, a native addon: a build in this process would have mapped it.
    const maps = readFileSync(`/proc/${app.child.pid}/maps`, "utf8");
    expect(maps).not.toMatch(/rolldown|lightningcss|tailwindcss-oxide/);
  }, 300_000);
});
