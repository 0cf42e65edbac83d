import type { NormalizedFrame, NormalizedOccurrence, NormalizedRequest } from "../../../shared/occurrence.types";
import type { ScrubSettings } from "./scrub-settings";
import { FILTERED, isSensitiveKey } from "./sensitive-data";
import { isPlainObject } from "./value-coercion";
import {
  applyTextRules,
  DEFAULT_CARD_RULE,
  IP_REMOVAL_RULES,
  PASSWORD_KEY,
  PATTERN_BUDGET_MS,
  replacerOf,
  textRulesOf,
  type Replace,
  type TextRule,
} from "./value-rules";

/**
 * Server-side scrubbing (issue 35): the data settings applied to a normalised event before it is
 * grouped and stored, so what was scrubbed is never written and cannot split an issue. The fixed
 * filters of normalisation (credential headers, cookie values, sensitive names in bodies, frame
 * variables and the CGI environment: sensitive-data.ts) always apply first; this adds what an
 * organization or project configures, over every text the event carries.
 */
interface Scrubber {
  safe: Set<string>;
  scrubDefaults: boolean;
  sensitive: string[];
  /** A `password` rule's method for values under password-like keys. */
  password: Replace | null;
  textRules: TextRule[];
  storeIp: boolean;
}

/** Headers and CGI variables that carry the client's address. */
const IP_KEYS = new Set([
  "remote_addr",
  "x-forwarded-for",
  "x-real-ip",
  "forwarded",
  "cf-connecting-ip",
  "true-client-ip",
  "x-client-ip",
  "http_x_forwarded_for",
  "http_x_real_ip",
]);
/** Containers nest at most this deep after normalisation; a guard, not a limit that bites. */
const MAX_DEPTH = 24;
/** Compiled settings by their JSON: a worker sees a fresh copy of the same settings with every body. */
const compiled = new Map<string, Scrubber>();
const MAX_COMPILED = 500;

function compile(settings: ScrubSettings): Scrubber {
  const key = JSON.stringify(settings);
  const cached = compiled.get(key);
  if (cached) return cached;
  const textRules = [
    ...(settings.scrubDefaults ? [DEFAULT_CARD_RULE] : []),
    ...settings.rules.flatMap((rule) => textRulesOf(rule, settings.hashKey)),
    ...(settings.storeIpAddresses ? [] : IP_REMOVAL_RULES),
  ];
  const passwordRule = settings.rules.find((rule) => rule.type === "password");
  const scrubber: Scrubber = {
    safe: new Set(settings.safeFields.map((name) => name.toLowerCase())),
    scrubDefaults: settings.scrubDefaults,
    sensitive: settings.sensitiveFields.map((name) => name.toLowerCase()),
    password: passwordRule ? replacerOf(passwordRule.method, settings.hashKey, passwordRule.replacement) : null,
    textRules,
    storeIp: settings.storeIpAddresses,
  };
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(key, scrubber);
  return scrubber;
}

/** Counts what one event's scrubbing replaced. */
class Pass {
  count = 0;
  /** User patterns may scan this much of the event (value-rules.ts); the product's rules are cheap and unbudgeted. */
  readonly budget = { ms: PATTERN_BUDGET_MS };
  constructor(readonly scrubber: Scrubber) {}

  text(value: string): string {
    if (this.scrubber.textRules.length === 0 || value.length === 0) return value;
    const result = applyTextRules(value, this.scrubber.textRules, this.budget);
    this.count += result.count;
    return result.text;
  }

  textOrNull(value: string | null | undefined): string | null {
    return typeof value === "string" ? this.text(value) : (value ?? null);
  }

  /** What a key's value becomes: kept whole (safe), replaced whole (sensitive), or walked. */
  keyed(key: string, value: unknown, depth: number): unknown {
    const lower = key.toLowerCase();
    const { scrubber } = this;
    if (scrubber.safe.has(lower)) return value;
    if (!scrubber.storeIp && IP_KEYS.has(lower)) return this.replaced(value, () => FILTERED);
    if (scrubber.password && PASSWORD_KEY.test(key)) return this.replaced(value, scrubber.password);
    if ((scrubber.scrubDefaults && isSensitiveKey(key)) || scrubber.sensitive.some((name) => lower.includes(name))) return this.replaced(value, () => FILTERED);
    return this.value(value, depth);
  }

  private replaced(value: unknown, replace: Replace): unknown {
    if (value === null || value === undefined || value === "" || value === FILTERED) return value;
    this.count += 1;
    return replace(typeof value === "string" ? value : JSON.stringify(value));
  }

  value(value: unknown, depth: number): unknown {
    if (typeof value === "string") return this.text(value);
    if (depth >= MAX_DEPTH || value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.value(value[i], depth + 1);
      return value;
    }
    if (!isPlainObject(value)) return value;
    this.record(value, depth);
    return value;
  }

  /** Scrubs an object in place (normalisation made it; nothing else holds it). */
  record<T extends Record<string, unknown>>(record: T, depth = 0): T {
    for (const key of Object.keys(record)) {
      const before = record[key];
      const after = this.keyed(key, before, depth + 1);
      // defineProperty, not assignment: a `__proto__` key is data and must stay an own property.
      if (after !== before) Object.defineProperty(record, key, { value: after, writable: true, enumerable: true, configurable: true });
    }
    return record;
  }

  frames(frames: NormalizedFrame[] | undefined) {
    for (const frame of frames ?? []) if (frame.vars) this.record(frame.vars);
  }

  /** A query string's values by their names; rebuilt only when something changed. */
  query(query: string): string {
    const params = new URLSearchParams(query);
    let changed = false;
    const out = new URLSearchParams();
    for (const [key, value] of params) {
      const after = this.keyed(key, value, 0);
      const text = typeof after === "string" ? after : String(after);
      if (text !== value) changed = true;
      out.append(key, text);
    }
    return changed ? out.toString() : query;
  }

  url(url: string): string {
    const mark = url.indexOf("?");
    if (mark < 0) return this.text(url);
    const hash = url.indexOf("#", mark);
    const query = hash < 0 ? url.slice(mark + 1) : url.slice(mark + 1, hash);
    return this.text(url.slice(0, mark)) + "?" + this.query(query) + (hash < 0 ? "" : this.text(url.slice(hash)));
  }

  request(request: NormalizedRequest) {
    if (request.url) request.url = this.url(request.url);
    if (request.query) request.query = this.query(request.query);
    if (!this.scrubber.storeIp && request.clientIp) {
      request.clientIp = null;
      this.count += 1;
    }
    this.record(request.headers);
    if (request.cookies) this.record(request.cookies);
    if (request.data !== undefined && request.data !== null) request.data = this.value(request.data, 0);
    if (request.env) this.record(request.env);
  }
}

/**
 * Applies the settings to a normalised event in place and returns how many values were replaced
 * (the "n values scrubbed today" count). Runs before grouping (prepare/ready-payload.ts).
 */
export function scrubOccurrence(occurrence: NormalizedOccurrence, settings: ScrubSettings): number {
  const pass = new Pass(compile(settings));
  occurrence.message = pass.textOrNull(occurrence.message);
  occurrence.logentryTemplate = pass.textOrNull(occurrence.logentryTemplate);
  occurrence.transaction = pass.textOrNull(occurrence.transaction);
  if (occurrence.culprit) occurrence.culprit = pass.text(occurrence.culprit);
  for (const exception of occurrence.exceptions) {
    exception.value = pass.textOrNull(exception.value);
    if (exception.mechanism) {
      exception.mechanism.data = pass.value(exception.mechanism.data, 0);
      exception.mechanism.meta = pass.value(exception.mechanism.meta, 0);
    }
    pass.frames(exception.frames);
  }
  pass.frames(occurrence.stacktrace);
  for (const thread of occurrence.threads ?? []) pass.frames(thread.frames);
  for (const crumb of occurrence.breadcrumbs) {
    crumb.message = pass.textOrNull(crumb.message);
    crumb.data = pass.value(crumb.data, 0);
  }
  pass.record(occurrence.extra);
  pass.record(occurrence.contexts);
  pass.record(occurrence.tags);
  if (occurrence.request) pass.request(occurrence.request);
  const user = occurrence.user;
  if (user) {
    user.id = pass.textOrNull(user.id);
    user.email = pass.textOrNull(user.email);
    user.username = pass.textOrNull(user.username);
    if (user.name) user.name = pass.text(user.name);
    if (user.geo) pass.record(user.geo);
    if (user.data) pass.record(user.data);
    if (!pass.scrubber.storeIp && user.ip) {
      user.ip = null;
      pass.count += 1;
    }
  }
  return pass.count;
}
