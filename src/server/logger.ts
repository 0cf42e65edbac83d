/** Structured JSON logs: one object per line, secrets redacted before they are written. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
export type LogFields = Record<string, unknown>;

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

const SECRET_KEYS =
  /^(authorization|cookie|set-cookie|password|newpassword|currentpassword|token|secret|sentry_key|x-api-key|x-sentry-auth|api_?key|client_?secret|access_?token|refresh_?token|secret_?access_?key|session_?token)$/i;
// Query parameters that carry keys or one-time tokens: better-auth's verification, deletion and
// change-email links (`token=`), invitation links (`invitationId=`), OAuth `code`/`state`, and
// `callbackURL`, which can wrap another link with its own token (percent-encoded).
const SECRET_QUERY = /([?&](?:sentry_key|sentry_secret|api_key|apikey|token|invitationId|code|state|callbackURL)=)[^&\s"]+/gi;
// better-auth's reset link carries the token in the path: /reset-password/<token>.
const SECRET_PATH = /(\/reset-password\/)[^/?#\s"]+/gi;
// Organization API tokens are recognisable by their prefix wherever they appear (a pasted header, an error message).
const API_TOKEN = /\bflt_[A-Za-z0-9_-]{8,}/g;
// AWS access key ids (long-term AKIA…, temporary ASIA…) keep only their last 4 characters, as the UI shows them.
const AWS_KEY_ID = /\b(AKIA|ASIA)[A-Z0-9]{12}([A-Z0-9]{4})\b/g;

/**
 * A string written to the log as it is, past redaction. Only for values an operator asked to see
 * (MAIL_LOG_LINKS=true writes live action links).
 */
export class Verbatim {
  constructor(readonly value: string) {}
  toJSON() {
    return this.value;
  }
}

/** Redacts secret-looking keys at any depth and secret query params and path tokens inside strings. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return "[Truncated]";
  if (typeof value === "string")
    return value.replace(SECRET_QUERY, "$1[Filtered]").replace(SECRET_PATH, "$1[Filtered]").replace(API_TOKEN, "flt_[Filtered]").replace(AWS_KEY_ID, "$1…$2");
  if (value instanceof Verbatim) return value.value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, SECRET_KEYS.test(key) ? "[Filtered]" : redact(inner, depth + 1)]));
  }
  return value;
}

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(line), base: LogFields = {}): Logger {
  const threshold = LEVEL_ORDER[level];
  const log = (lvl: Exclude<LogLevel, "silent">, msg: string, fields?: LogFields) => {
    if (LEVEL_ORDER[lvl] < threshold) return;
    const record = { time: new Date().toISOString(), level: lvl, msg, ...base, ...fields };
    // JSON.stringify escapes newlines, so a hostile value can never split the line.
    write(`${JSON.stringify(redact(record))}\n`);
  };
  return {
    debug: (msg, fields) => log("debug", msg, fields),
    info: (msg, fields) => log("info", msg, fields),
    warn: (msg, fields) => log("warn", msg, fields),
    error: (msg, fields) => log("error", msg, fields),
    child: (fields) => createLogger(level, write, { ...base, ...fields }),
  };
}
