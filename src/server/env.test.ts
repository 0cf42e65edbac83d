import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { defaultIngestWorkers, InvalidEnvironmentError, parseEnv } from "./env";
import { DEFAULT_INGEST_LIMITS } from "./ingest/http/ingest-limits";
import { loadStartupEnvironment } from "./startup-environment";

describe("environment configuration", () => {
  it("has working defaults: self-hosted, port 3000, embedded database", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      DEPLOYMENT_MODE: "SELF_HOSTED",
      PORT: 3000,
      API_URL: "http://localhost:3000",
      PGLITE_DATA_DIR: "./data",
      isProduction: false,
      devOutbox: true,
      clientMode: "vite",
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("defaults the ingest limits to the ingest path's own, as .env.example documents them", () => {
    const limits = {
      maxCompressedBytes: "INGEST_MAX_COMPRESSED_BYTES",
      maxDecompressedBytes: "INGEST_MAX_DECOMPRESSED_BYTES",
      maxEventBytes: "INGEST_MAX_EVENT_BYTES",
      maxItems: "INGEST_MAX_ITEMS",
      maxJsonDepth: "INGEST_MAX_JSON_DEPTH",
    } as const;
    expect(Object.keys(limits).sort()).toEqual(Object.keys(DEFAULT_INGEST_LIMITS).sort());
    const env = parseEnv({});
    const example = readFileSync(path.join(import.meta.dirname, "../../.env.example"), "utf8");
    for (const [field, variable] of Object.entries(limits) as [keyof typeof limits, (typeof limits)[keyof typeof limits]][]) {
      expect(env[variable], variable).toBe(DEFAULT_INGEST_LIMITS[field]);
      expect(example, variable).toMatch(new RegExp(`^${variable}=${DEFAULT_INGEST_LIMITS[field]}$`, "m"));
    }
  });

  it("keeps exceptions 90 days by default and refuses RETENTION_DAYS outside 1..3650", () => {
    expect(parseEnv({}).RETENTION_DAYS).toBe(90);
    expect(parseEnv({ RETENTION_DAYS: "3650" }).RETENTION_DAYS).toBe(3650);
    for (const value of ["0", "3651", "7.5", "forever"]) expect(() => parseEnv({ RETENTION_DAYS: value }), value).toThrow(/RETENTION_DAYS/);
  });

  it("reads a read replica's URL and lag bound (10 s by default), refusing what is not PostgreSQL", () => {
    expect(parseEnv({}).DATABASE_READ_URL).toBeUndefined();
    expect(parseEnv({}).READ_REPLICA_MAX_LAG_SECONDS).toBe(10);
    const env = parseEnv({ DATABASE_READ_URL: "postgres://reader@standby:5432/faultline", READ_REPLICA_MAX_LAG_SECONDS: "30" });
    expect(env.DATABASE_READ_URL).toBe("postgres://reader@standby:5432/faultline");
    expect(env.READ_REPLICA_MAX_LAG_SECONDS).toBe(30);
    expect(() => parseEnv({ DATABASE_READ_URL: "mysql://standby/faultline" })).toThrow(/DATABASE_READ_URL/);
    for (const value of ["0", "1.5", "soon"]) expect(() => parseEnv({ READ_REPLICA_MAX_LAG_SECONDS: value }), value).toThrow(/READ_REPLICA_MAX_LAG_SECONDS/);
  });

  it("starts payload workers only on cores beyond the main thread's and the database's, at most two", () => {
    expect([1, 2, 3, 4, 8, 64].map(defaultIngestWorkers)).toEqual([0, 0, 1, 2, 2, 2]);
    expect(parseEnv({ INGEST_WORKERS: "1" }).INGEST_WORKERS).toBe(1);
  });

  it("accepts the hosted mode literal and treats empty values as unset", () => {
    const stripe = { STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1", STRIPE_PLUS_PRICE_ID: "price_plus" };
    expect(parseEnv({ DEPLOYMENT_MODE: "FAULTLINE_CLOUD", DATABASE_URL: "", ...stripe }).DEPLOYMENT_MODE).toBe("FAULTLINE_CLOUD");
  });

  it("refuses the hosted mode without Stripe's keys and the plus price, naming each", () => {
    let error: unknown;
    try {
      parseEnv({ DEPLOYMENT_MODE: "FAULTLINE_CLOUD", STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidEnvironmentError);
    const message = (error as Error).message;
    expect(message.split("\n")[0]).toBe("Invalid environment configuration");
    expect(message).toContain("STRIPE_WEBHOOK_SECRET: required when DEPLOYMENT_MODE is FAULTLINE_CLOUD");
    expect(message).toContain("STRIPE_PLUS_PRICE_ID: required when DEPLOYMENT_MODE is FAULTLINE_CLOUD");
    expect(message).not.toContain("STRIPE_SECRET_KEY");
    // Self-hosted needs none of them, and the plan settings have their documented defaults.
    expect(parseEnv({}).PLAN_FREE_MONTHLY_EVENTS).toBe(10_000);
  });

  it("stops a hosted deployment without Stripe settings at start-up", () => {
    // What main.ts runs before anything else; "stops the process with the message and exit code 1"
    // below proves main.ts prints such an error and exits 1.
    expect(() => loadStartupEnvironment({ DEPLOYMENT_MODE: "FAULTLINE_CLOUD", PGLITE_DATA_DIR: "memory://" })).toThrow(InvalidEnvironmentError);
    expect(() => loadStartupEnvironment({ DEPLOYMENT_MODE: "FAULTLINE_CLOUD", PGLITE_DATA_DIR: "memory://" })).toThrow(
      /^Invalid environment configuration\n[\s\S]*STRIPE_SECRET_KEY/,
    );
  });

  it("takes PRIVACY_POLICY_URL as an http(s) URL only (it becomes the sign-up's link)", () => {
    expect(parseEnv({}).PRIVACY_POLICY_URL).toBeUndefined();
    expect(parseEnv({ PRIVACY_POLICY_URL: "https://example.com/privacy" }).PRIVACY_POLICY_URL).toBe("https://example.com/privacy");
    for (const bad of ["javascript:alert(1)", "/privacy", "ftp://example.com/p"]) {
      expect(() => parseEnv({ PRIVACY_POLICY_URL: bad }), bad).toThrow(InvalidEnvironmentError);
    }
  });

  it("names every wrong key under 'Invalid environment configuration'", () => {
    let error: unknown;
    try {
      parseEnv({ DEPLOYMENT_MODE: "HOSTED", API_URL: "not a url", PORT: "-1", GITHUB_CLIENT_ID: "only-the-id" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidEnvironmentError);
    const message = (error as Error).message;
    expect(message.split("\n")[0]).toBe("Invalid environment configuration");
    for (const key of ["DEPLOYMENT_MODE", "API_URL", "PORT", "GITHUB_CLIENT_ID"]) expect(message).toContain(key);
  });

  it("requires AUTH_SECRET in production", () => {
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrow(/AUTH_SECRET/);
    expect(parseEnv({ NODE_ENV: "production", AUTH_SECRET: "x".repeat(32) })).toMatchObject({
      isProduction: true,
      authRateLimit: true,
      devOutbox: false,
      clientMode: "built",
    });
  });

  it("stops the process with the message and exit code 1", () => {
    const main = path.join(import.meta.dirname, "main.ts");
    const run = spawnSync(process.execPath, ["--import", "tsx", main], {
      env: { PATH: process.env.PATH, DEPLOYMENT_MODE: "nope" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Invalid environment configuration");
    expect(run.stderr).toContain("DEPLOYMENT_MODE");
  });
});
