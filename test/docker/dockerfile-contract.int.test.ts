import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/app-process";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { loadStartupEnvironment } from "../../src/server/startup-environment";

/**
 * Issue 37 item 8: the Docker files' contract, checked without Docker (this machine has no engine)
 * and without building anything, so it cannot rot: the build context leaves out the host's
 * node_modules, data, .env and dist while keeping every file a COPY names; the image runs as a
 * non-root user who owns the data folder, which is a volume; the health check asks /api/health on
 * $PORT (run here against a real server); and the README's `docker run` and docker-compose.yml
 * pass the settings production refuses to start without.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's stages, each a list of instructions (continuation lines joined, comments dropped). */
function dockerfileStages(text: string): { name: string; instructions: Instruction[] }[] {
  const lines = text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  const stages: { name: string; instructions: Instruction[] }[] = [];
  for (const line of lines) {
    const [, keyword, args] = line.match(/^(\w+)\s+(.*)$/)!;
    if (keyword.toUpperCase() === "FROM") stages.push({ name: args.match(/\bAS\s+(\S+)/i)?.[1] ?? "", instructions: [] });
    stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args: args.replace(/\s+/g, " ") });
  }
  return stages;
}

/** ENV's `NAME=value` pairs (unquoted or double-quoted values). */
function envOf(instructions: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of instructions.filter((instruction) => instruction.keyword === "ENV")) {
    for (const [, name, quoted, bare] of args.matchAll(/(\w+)=(?:"([^"]*)"|(\S*))/g)) env[name] = quoted ?? bare;
  }
  return env;
}

/** A JSON-array or space-separated instruction argument list. */
const argList = (args: string): string[] => (args.startsWith("[") ? (JSON.parse(args) as string[]) : args.split(" "));

/**
 * Docker's .dockerignore rules: patterns relative to the context root, `*` within a path segment,
 * `**` across any number of them, `!` re-including, the last matching line winning, and a
 * pattern that matches a folder excluding everything under it.
 */
function dockerignore(text: string): (file: string) => boolean {
  const rules = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const include = line.startsWith("!");
      const pattern = path.posix.normalize((include ? line.slice(1) : line).trim()).replace(/^\/+|\/+$/g, "");
      const source = pattern
        .split("/")
        .map((segment) =>
          segment === "**"
            ? "(?:.*)"
            : segment
                .replace(/[.+^${}()|[\]\\]/g, "\\$&")
                .replace(/\*/g, "[^/]*")
                .replace(/\?/g, "[^/]"),
        )
        .join("/")
        .replace(/\(\?:\.\*\)\//g, "(?:.*/)?");
      return { include, regex: new RegExp(`^${source}$`) };
    });
  return (file) => {
    const parts = file.split("/");
    const prefixes = parts.map((_, index) => parts.slice(0, index + 1).join("/"));
    let excluded = false;
    for (const rule of rules) if (prefixes.some((prefix) => rule.regex.test(prefix))) excluded = !rule.include;
    return excluded;
  };
}

/** Values production accepts for the settings the examples pass (never real secrets). */
const SAMPLE: Record<string, string> = {
  API_URL: "https://faultline.example.com",
  AUTH_SECRET: "a".repeat(64),
  SECRETS_KEY: `1:${"ab".repeat(32)}`,
  SMTP_URL: "smtp://mail.example.com:587",
};

/** What main.ts checks before it opens the database: throws what would stop the container. */
function checkStartable(env: Record<string, string>) {
  return loadStartupEnvironment(env).env;
}

const stages = dockerfileStages(read("Dockerfile"));
const runtime = stages.at(-1)!;
const runtimeEnv = envOf(runtime.instructions);
const of = (keyword: string) => runtime.instructions.filter((instruction) => instruction.keyword === keyword);
const indexOf = (keyword: string) => runtime.instructions.findIndex((instruction) => instruction.keyword === keyword);

describe("the Docker image's contract (no engine, nothing built)", () => {
  it("keeps the host's node_modules, data, .env files, dist and .git out of the build context", () => {
    const excluded = dockerignore(read(".dockerignore"));
    for (const file of [
      "node_modules",
      "node_modules/react/index.js",
      "src/client/node_modules/x.js",
      "data",
      "data/auth-secret",
      "data/base/PG_VERSION",
      ".env",
      ".env.production",
      "dist",
      "dist/client/index.html",
      ".git/HEAD",
    ]) {
      expect(excluded(file), file).toBe(true);
    }
    // Everything a COPY from the context names is in it, and exists.
    const sources = stages.flatMap((stage) =>
      stage.instructions
        .filter((instruction) => instruction.keyword === "COPY" && !instruction.args.startsWith("--from"))
        .flatMap((copy) => argList(copy.args).slice(0, -1)),
    );
    expect(sources).toEqual(expect.arrayContaining(["package.json", "package-lock.json", ".", "src", "drizzle", "public"]));
    for (const source of sources) {
      expect(existsSync(path.join(ROOT, source)), source).toBe(true);
      if (source !== ".") expect(excluded(path.posix.normalize(source)), source).toBe(false);
    }
    // What `npm run build` reads in the build stage (after `COPY . .`).
    for (const file of ["vite.config.ts", "src/client/main.tsx", "src/shared/constants.ts", "public/favicon.svg", "src/server/build-client.ts"]) {
      expect(excluded(file), file).toBe(false);
    }
  });

  it("runs in production on the port it exposes", () => {
    expect(runtimeEnv.NODE_ENV).toBe("production");
    expect(runtimeEnv.PORT).toMatch(/^\d+$/);
    expect(of("EXPOSE").flatMap((expose) => expose.args.split(" "))).toContain(runtimeEnv.PORT);
    const cmd = argList(of("CMD").at(-1)!.args);
    expect(cmd.at(-1)).toBe("src/server/main.ts");
    expect(existsSync(path.join(ROOT, cmd.at(-1)!))).toBe(true);
  });

  it("keeps the data folder in a volume that a non-root user owns", () => {
    const dataDir = runtimeEnv.PGLITE_DATA_DIR;
    expect(dataDir).toMatch(/^\/\w/);
    const user = of("USER").at(-1)!.args.split(":")[0];
    expect(["root", "0"]).not.toContain(user);
    const userAt = runtime.instructions.findLastIndex((instruction) => instruction.keyword === "USER");
    expect(userAt).toBeLessThan(indexOf("CMD"));
    // Owned before it is declared a volume: a new volume is a copy of the image's folder.
    const chownAt = runtime.instructions.findIndex(
      (instruction) => instruction.keyword === "RUN" && new RegExp(`chown (-R )?${user}(:\\w+)? ${dataDir}(\\s|$)`).test(instruction.args),
    );
    expect(chownAt).toBeGreaterThan(-1);
    const volumeAt = runtime.instructions.findIndex((instruction) => instruction.keyword === "VOLUME" && argList(instruction.args).includes(dataDir));
    expect(volumeAt).toBeGreaterThan(chownAt);
  });

  describe("the health check", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(() => server?.close());

    const healthcheck = () => {
      const args = of("HEALTHCHECK").at(-1)!.args;
      return args.slice(args.indexOf("CMD ") + 4);
    };
    // Asynchronously: the server answering it runs in this process.
    const run = (port: number) =>
      new Promise<number | null>((resolve) => {
        const child = spawn("sh", ["-c", healthcheck()], {
          env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, PORT: String(port) },
          stdio: "ignore",
        });
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.on("exit", (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });

    it("asks /api/health on $PORT: healthy while the server answers there, unhealthy where nothing listens", async () => {
      expect(healthcheck()).toContain("/api/health");
      expect(await run(Number(new URL(server.url).port))).toBe(0);
      expect(await run(await freePort())).toBe(1);
    });
  });

  it("has a README `docker run` example with the settings production needs, the port and the volume", () => {
    const readme = read("README.md");
    const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]).find((code) => code.includes("docker run"));
    expect(block).toBeDefined();
    const command = block!.replace(/\\\n/g, " ");
    const names = [...command.matchAll(/-e (\w+)=/g)].map((match) => match[1]);
    expect(command).toMatch(new RegExp(`-p \\d+:${runtimeEnv.PORT}\\b`));
    expect(command).toMatch(new RegExp(`-v [\\w.-]+:${runtimeEnv.PGLITE_DATA_DIR}\\b`));
    const env = { ...runtimeEnv, ...Object.fromEntries(names.map((name) => [name, SAMPLE[name] ?? "true"])) };
    expect(() => checkStartable(env)).not.toThrow();
    // Each of them is needed: without any one, production refuses to start (API_URL only names the address).
    for (const name of names.filter((name) => name !== "API_URL")) {
      const without = Object.fromEntries(Object.entries(env).filter(([key]) => key !== name));
      expect(() => checkStartable(without), name).toThrow();
    }
  });

  it("has a docker-compose.yml that builds this image beside PostgreSQL and passes the same settings", () => {
    const compose = read("docker-compose.yml");
    const services = compose.slice(compose.indexOf("\nservices:\n"), compose.indexOf("\nvolumes:\n"));
    const blocks: Record<string, string> = {};
    let service = "";
    for (const line of services.split("\n")) {
      const start = line.match(/^ {2}(\w[\w-]*):$/);
      if (start) service = start[1];
      else if (service) blocks[service] = `${blocks[service] ?? ""}${line}\n`;
    }
    const app = Object.entries(blocks).find(([, block]) => /^ {4}build: \.$/m.test(block));
    expect(app).toBeDefined();
    const [, appBlock] = app!;
    expect(appBlock).toMatch(new RegExp(`- "?(\\$\\{\\w+:-)?\\d+\\}?:${runtimeEnv.PORT}"?`));
    expect(appBlock).toMatch(new RegExp(`- [\\w-]+:${runtimeEnv.PGLITE_DATA_DIR}$`, "m"));

    // The environment as compose would pass it, given the .env file the README writes.
    const given: Record<string, string> = { AUTH_SECRET: SAMPLE.AUTH_SECRET, SECRETS_KEY: SAMPLE.SECRETS_KEY, SMTP_URL: SAMPLE.SMTP_URL };
    const interpolate = (value: string) =>
      value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind: string, rest: string) => {
        if (given[name] !== undefined) return given[name];
        if (kind === "?") throw new Error(`compose refuses to start without ${name}: ${rest}`);
        return kind === "-" ? rest : "";
      });
    const environment = appBlock.slice(appBlock.indexOf("environment:\n"));
    const env: Record<string, string> = {};
    for (const [, name, value] of environment.matchAll(/^ {6}(\w+): "?(.*?)"?$/gm)) env[name] = interpolate(value);
    const parsed = checkStartable({ ...runtimeEnv, ...env });
    // Its database is the PostgreSQL service of the same file.
    const host = new URL(parsed.DATABASE_URL!).hostname;
    expect(blocks[host]).toMatch(/^ {4}image: postgres:\d+/m);
    expect(blocks[host]).toMatch(/pg_isready/);
    expect(appBlock).toMatch(new RegExp(`depends_on:\\n {6}${host}:\\n {8}condition: service_healthy`));
    // Without the secrets in .env, compose stops before starting anything.
    delete given.AUTH_SECRET;
    expect(() => environment.split("\n").map(interpolate)).toThrow(/AUTH_SECRET/);
  });
});
