import { availableParallelism } from "node:os";
import { z } from "zod";
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from "../shared/data-settings.inputs";
import { DEFAULT_INGEST_LIMITS, DEFAULT_KEY_BYTE_RATE_LIMIT } from "./ingest/http/ingest-limits";
import { parseKeyring } from "./secrets/keyring";
import { missingSecretFix } from "./secrets/local-secret-files";
import { parseOutboundAllow } from "./outbound/outbound-allow";

/**
 * Payload workers on the cores left after the main thread's and one for the database and the rest
 * of the machine, at most two: none on two cores, where a worker finds no idle core and its copies
 * across the thread boundary cost more than it saves (bench/README.md, session 17).
 */
export function defaultIngestWorkers(cores: number): number {
  return Math.max(0, Math.min(2, cores - 2));
}

/** Thrown (and printed by main.ts) when the environment cannot be parsed. */
export class InvalidEnvironmentError extends Error {
  constructor(readonly issues: string[]) {
    super(
      `Invalid environment configuration\n${issues.map((issue) => `  - ${issue}`).join("\n")}\n` +
        "Fix every setting listed (each variable is described in .env.example), then start again.",
    );
    this.name = "InvalidEnvironmentError";
  }
}

export const DEPLOYMENT_MODES = ["SELF_HOSTED", "FAULTLINE_CLOUD"] as const;

const booleanFlag = z.enum(["true", "false", "1", "0", "yes", "no"]).transform((value) => value === "true" || value === "1" || value === "yes");

const commaList = z.string().transform((value) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean),
);

const optionalString = z.string().min(1).optional();

/**
 * Every variable Faultline reads. `.env.example` documents each one; keep the two in step.
 * Social providers are read separately (see `socialProviderEnv`) because their names are generated.
 */
const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  API_URL: z.url().default("http://localhost:3000"),
  DEPLOYMENT_MODE: z.enum(DEPLOYMENT_MODES).default("SELF_HOSTED"),
  // The sign-up's "Privacy Policy" link; unset, the built-in page /privacy. http(s) only: it becomes a link.
  PRIVACY_POLICY_URL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  // A streaming-replication standby of DATABASE_URL's server for reads that tolerate lag
  // (db/read-replica.ts); ignored without DATABASE_URL (PGlite has no standby).
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  // Reads leave the standby while its replay lags more than this; a writer reads the primary this long after a write.
  READ_REPLICA_MAX_LAG_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  PGLITE_DATA_DIR: z.string().default("./data"),
  // Uploaded source-map bundles and chunks as files under this directory instead of in the database.
  ARTIFACT_DIR: optionalString,
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  // Seals third-party credentials at rest (secrets/secret-box.ts); checked here so a bad key stops start-up.
  SECRETS_KEY: z
    .string()
    .superRefine((value, ctx) => {
      try {
        parseKeyring(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message.replace(/^SECRETS_KEY: /, "") });
      }
    })
    .optional(),
  TRUSTED_ORIGINS: commaList.default([]),
  TRUST_PROXY: z.union([z.coerce.number().int().min(0), z.literal("false").transform(() => 0)]).default(0),
  // Bearer token for GET /metrics (Prometheus); unset, /metrics answers clients on this machine only.
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  REQUIRE_EMAIL_VERIFICATION: booleanFlag.default(true),
  AUTH_RATE_LIMIT: booleanFlag.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().default("Faultline <no-reply@faultline.local>"),
  DEV_OUTBOX: booleanFlag.optional(),
  MAIL_LOG_LINKS: booleanFlag.default(false),
  GOOGLE_DISCOVERY_URL: z.url().optional(),
  // The defaults are the ingest path's own (ingest-limits.ts), so a caller without env agrees.
  INGEST_MAX_COMPRESSED_BYTES: z.coerce.number().int().positive().default(DEFAULT_INGEST_LIMITS.maxCompressedBytes),
  INGEST_MAX_DECOMPRESSED_BYTES: z.coerce.number().int().positive().default(DEFAULT_INGEST_LIMITS.maxDecompressedBytes),
  INGEST_MAX_EVENT_BYTES: z.coerce.number().int().positive().default(DEFAULT_INGEST_LIMITS.maxEventBytes),
  INGEST_MAX_ITEMS: z.coerce.number().int().positive().default(DEFAULT_INGEST_LIMITS.maxItems),
  INGEST_MAX_JSON_DEPTH: z.coerce.number().int().min(2).max(512).default(DEFAULT_INGEST_LIMITS.maxJsonDepth),
  INGEST_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  INGEST_PROJECT_RATE_LIMIT: z.coerce.number().int().min(0).default(0),
  // Batches committing at once on PostgreSQL. One is fastest on a small machine: while it commits,
  // the next batch fills, so batches are bigger and cost less per event (bench/README.md, round 5).
  INGEST_COMMIT_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  // Threads that parse, normalise and group request bodies beside the main thread, which also
  // serves HTTP and drives the database (ingest/prepare/payload-workers.ts); 0 does it all inline.
  INGEST_WORKERS: z.coerce.number().int().min(0).max(16).default(defaultIngestWorkers(availableParallelism())),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  INGEST_KEY_RATE_LIMIT: z.coerce.number().int().min(0).default(0),
  // Decompressed bytes of large bodies (64 KiB and more) per window per client key; 0 = unlimited.
  // On by default: a few keys' large envelopes must not take every tenant's ingest (issue 31).
  INGEST_KEY_BYTE_RATE_LIMIT: z.coerce.number().int().min(0).default(DEFAULT_KEY_BYTE_RATE_LIMIT),
  CLIENT_MODE: z.enum(["vite", "built", "none"]).optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // Node's own; read only to leave an operator's V8 heap flags alone (see heap-tuning.ts).
  NODE_OPTIONS: z.string().default(""),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  // Alerts (issue 18): outbound webhooks and delivery.
  OUTBOUND_ALLOW: z
    .string()
    .default("")
    .superRefine((value, ctx) => {
      try {
        parseOutboundAllow(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message.replace(/^OUTBOUND_ALLOW: /, "") });
      }
    }),
  OUTBOUND_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(10_000),
  ALERT_JOB_POLL_MS: z.coerce.number().int().min(50).default(1000),
  // AWS WAF integration (issue 16). The SDK's standard endpoint variables, passed to the clients
  // explicitly (a WAF-compatible proxy, or a test stand-in), and Faultline's own AWS identity,
  // used only to assume the roles organizations connect with (STS AssumeRole + ExternalId).
  AWS_ENDPOINT_URL: z.url().optional(),
  AWS_ENDPOINT_URL_WAFV2: z.url().optional(),
  AWS_ENDPOINT_URL_STS: z.url().optional(),
  AWS_ACCESS_KEY_ID: optionalString,
  AWS_SECRET_ACCESS_KEY: optionalString,
  AWS_SESSION_TOKEN: optionalString,
  // Days exceptions are kept where an organization and its project chose nothing (data settings);
  // on FAULTLINE_CLOUD what applies is at most the plan's PLAN_*_RETENTION_DAYS.
  RETENTION_DAYS: z.coerce.number().int().min(MIN_RETENTION_DAYS).max(MAX_RETENTION_DAYS).default(90),
  // Minutes between maintenance runs (partitions ahead, retention; retention/maintenance-jobs.ts),
  // one runner per cluster; 0 turns the schedule off (`npm run maintenance` still works).
  MAINTENANCE_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(1440).default(60),
  // Billing and plans (hosted deployment only, DEPLOYMENT_MODE=FAULTLINE_CLOUD; billing/).
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PLUS_PRICE_ID: optionalString,
  STRIPE_API_URL: z.url().default("https://api.stripe.com"),
  PLAN_FREE_MONTHLY_EVENTS: z.coerce.number().int().min(0).default(10_000),
  PLAN_PLUS_MONTHLY_EVENTS: z.coerce.number().int().min(0).default(1_000_000),
  PLAN_FREE_RETENTION_DAYS: z.coerce.number().int().positive().default(30),
  PLAN_PLUS_RETENTION_DAYS: z.coerce.number().int().positive().default(90),
  PLAN_PLUS_PRICE_LABEL: z.string().min(1).default("$20 per seat per month"),
  // AI agent (chat): the model provider, the plan it needs on FAULTLINE_CLOUD, and its limits.
  AI_PROVIDER: z.enum(["openai", "anthropic", "openai-compatible"]).optional(),
  AI_MODEL: optionalString,
  AI_BASE_URL: z.url().optional(),
  AI_API_KEY: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: z.url().optional(),
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: z.url().optional(),
  AI_REQUIRED_PLAN: z.enum(["plus", "free"]).default("plus"),
  AI_DAILY_TOKEN_BUDGET: z.coerce.number().int().min(0).default(0),
  AI_MAX_TOOL_STEPS: z.coerce.number().int().min(1).max(50).default(8),
  AI_CONTEXT_TOKENS: z.coerce.number().int().min(2_000).default(32_000),
  AI_ANSWER_TOKEN_CAP: z.coerce.number().int().min(1_000).default(128_000),
});

/**
 * The hosted deployment sells plans: without Stripe's keys and the plus price it must not start.
 * Read from the raw values rather than refined on the schema, which zod skips when any other
 * variable fails: every missing setting is reported on the first start, not one per start.
 */
function hostedIssues(source: NodeJS.ProcessEnv): string[] {
  if (source.DEPLOYMENT_MODE !== "FAULTLINE_CLOUD") return [];
  return (["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_PLUS_PRICE_ID"] as const)
    .filter((key) => !source[key])
    .map(
      (key) =>
        `${key}: required when DEPLOYMENT_MODE is FAULTLINE_CLOUD (from the Stripe dashboard: the secret API key, the webhook's signing secret, the plus plan's price id)`,
    );
}

export type Env = z.infer<typeof EnvSchema> & {
  /** Set when NODE_ENV is production: stricter cookies, rate limits, no dev outbox. */
  isProduction: boolean;
  authRateLimit: boolean;
  /** /dev/outbox: never with SMTP_URL (mails are delivered), and loopback clients only. */
  devOutbox: boolean;
  /** How the React client is served: the built bundle, Vite's dev middleware, or not at all. */
  clientMode: "vite" | "built" | "none";
  socialProviders: Record<string, { clientId: string; clientSecret: string }>;
};

/** The social providers better-auth supports that Faultline offers once configured. */
export const SOCIAL_PROVIDER_IDS = [
  "apple",
  "atlassian",
  "cognito",
  "discord",
  "dropbox",
  "facebook",
  "figma",
  "github",
  "gitlab",
  "google",
  "huggingface",
  "kakao",
  "kick",
  "line",
  "linear",
  "linkedin",
  "microsoft",
  "naver",
  "notion",
  "paypal",
  "reddit",
  "roblox",
  "salesforce",
  "slack",
  "spotify",
  "tiktok",
  "twitch",
  "twitter",
  "vk",
  "zoom",
] as const;

function socialProviderEnv(source: NodeJS.ProcessEnv, issues: string[]) {
  const configured: Env["socialProviders"] = {};
  for (const id of SOCIAL_PROVIDER_IDS) {
    const prefix = id.toUpperCase();
    const clientId = source[`${prefix}_CLIENT_ID`];
    const clientSecret = source[`${prefix}_CLIENT_SECRET`];
    if (!clientId && !clientSecret) continue;
    if (!clientId || !clientSecret) {
      issues.push(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
      continue;
    }
    configured[id] = { clientId, clientSecret };
  }
  return configured;
}

/** Empty strings in .env files mean "not set"; treating them as values would fail validation. */
function withoutEmpty(source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
}

const TRUE = new Set(["true", "1", "yes"]);

/** Parses the environment once; callers pass the result down instead of reading process.env. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = withoutEmpty(source);
  const result = EnvSchema.safeParse(cleaned);
  const issues = result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  issues.push(...hostedIssues(cleaned));
  const socialProviders = socialProviderEnv(cleaned, issues);
  const isProduction = cleaned.NODE_ENV === "production";
  if (isProduction && !cleaned.AUTH_SECRET) {
    issues.push(`AUTH_SECRET: required when NODE_ENV is production; ${missingSecretFix(cleaned.PGLITE_DATA_DIR ?? "./data", "AUTH_SECRET")}`);
  }
  if (!result.success || issues.length > 0) throw new InvalidEnvironmentError(issues);

  const env = result.data;
  return {
    ...env,
    isProduction,
    authRateLimit: env.AUTH_RATE_LIMIT ?? isProduction,
    devOutbox: !env.SMTP_URL && (env.DEV_OUTBOX ?? !isProduction),
    clientMode: env.CLIENT_MODE ?? (isProduction ? "built" : "vite"),
    socialProviders,
  };
}

/**
 * Settings that parse but must not start a server, read from the raw values so they are reported
 * with parseEnv's problems on the same start:
 * - production without SMTP would write live reset, verification, deletion and invitation links
 *   into its log (the only place they go), so it needs an explicit MAIL_LOG_LINKS=true;
 * - production needs SECRETS_KEY: a generated key would live on one replica's disk, and losing it
 *   loses every sealed credential (auth/secret.ts).
 */
export function startupProblems(source: NodeJS.ProcessEnv = process.env): string[] {
  const cleaned = withoutEmpty(source);
  if (cleaned.NODE_ENV !== "production") return [];
  const problems: string[] = [];
  if (!cleaned.SMTP_URL && !TRUE.has(cleaned.MAIL_LOG_LINKS ?? "")) {
    problems.push(
      "SMTP_URL: required when NODE_ENV is production; set SMTP_URL=smtp://user:password@mail.example.com:587 (or set MAIL_LOG_LINKS=true to write account links, which grant access, to the log)",
    );
  }
  if (!cleaned.SECRETS_KEY) {
    problems.push(`SECRETS_KEY: required when NODE_ENV is production; ${missingSecretFix(cleaned.PGLITE_DATA_DIR ?? "./data", "SECRETS_KEY")}`);
  }
  return problems;
}
