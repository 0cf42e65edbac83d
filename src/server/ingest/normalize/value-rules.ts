import { createHmac } from "node:crypto";
import { isIP } from "node:net";
import type { ScrubMethod, ScrubRule } from "../../../shared/data-settings.inputs";
import { compileLinear } from "./linear-regex";
import { FILTERED } from "./sensitive-data";

/**
 * The value detectors of the data settings' rules. Each finds substrings; card numbers are
 * checked with Luhn so an order number of 16 digits stays. These are the product's own patterns:
 * bounded quantifiers only, so each runs in linear time on the backtracking engine.
 */
const CARD_CANDIDATE = /(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g;
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}/g;
const IPV4 = /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\d])/g;
/** Full and `::`-compressed IPv6 (at least two colons and a hex group), with an optional IPv4 tail. */
const IPV6 = /(?<![\w:])(?:[0-9a-fA-F]{1,4}:){1,7}(?::|(?::[0-9a-fA-F]{1,4}){1,7}|[0-9a-fA-F]{1,4})(?:\.\d{1,3}){0,3}(?![\w:])/g;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g;
const UUID = /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g;
/** Key names whose whole value a `password` rule takes. */
export const PASSWORD_KEY = /pass(?:wd|word)?|pwd|secret/i;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

const isCard = (match: string) => {
  const digits = match.replace(/[ -]/g, "");
  return digits.length >= 13 && digits.length <= 19 && luhnValid(digits);
};

/** What replaces one found value. */
export type Replace = (value: string) => string;

export function replacerOf(method: ScrubMethod, hashKey: string, replacement?: string): Replace {
  switch (method) {
    case "mask":
      return (value) => "*".repeat(value.length);
    case "remove":
      return () => FILTERED;
    case "replace":
      return () => replacement ?? FILTERED;
    case "hash":
      // 64 bits of HMAC-SHA256: stable for one organization, meaningless without the server's secret.
      return (value) => createHmac("sha256", Buffer.from(hashKey, "hex")).update(value).digest("hex").slice(0, 16);
  }
}

/** A rule that rewrites found substrings of a text. */
export interface TextRule {
  regex: RegExp;
  accept?: (match: string) => boolean;
  replace: Replace;
  /** A user pattern's measured cost, milliseconds per character scanned (patternCost); the product's own rules have none. */
  msPerChar?: number;
}

/**
 * Text to time a user pattern on: runs of one letter, digits, words and punctuation, where the
 * linear engine's active states (its cost) grow for patterns like `(a+)+$` or `(?:[a-z]+\s?)+x`.
 */
const CALIBRATION_TEXT = `${"a".repeat(512)} ${"0123456789".repeat(40)} ${"lorem ipsum dolor sit amet, ".repeat(30)} ${"-_./:@".repeat(60)}`;

/**
 * What scanning one character costs this pattern, measured once when the settings are compiled.
 * The linear-time engine bounds a pattern's cost per character, but that bound ranges from
 * ~0.2 µs (`cus_[A-Za-z0-9]+`) to several µs (nested quantifiers): the event's pattern budget
 * (event-scrubber.ts) is spent by this measure so that no pattern holds the thread for long.
 */
function patternCost(regex: RegExp): number {
  // The fastest of three runs: one slowed by a GC pause must not shrink this pattern's budget for as long as the settings are cached.
  let fastest = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    regex.lastIndex = 0;
    CALIBRATION_TEXT.replace(regex, (match) => match);
    fastest = Math.min(fastest, performance.now() - started);
  }
  return Math.max(fastest / CALIBRATION_TEXT.length, 1e-5);
}

/** The default card-number rule (scrubDefaults): `[Filtered]` in place of each Luhn-valid number. */
export const DEFAULT_CARD_RULE: TextRule = { regex: CARD_CANDIDATE, accept: isCard, replace: () => FILTERED };

/** Every IP address in a text, gone (storeIpAddresses: false). */
export const IP_REMOVAL_RULES: TextRule[] = [
  { regex: IPV4, replace: () => FILTERED },
  // A clock time (`12:30:45`) is no address: a valid IPv6 is compressed (`::`) or has all eight groups.
  { regex: IPV6, accept: (match) => isIP(match) === 6 && (match.includes("::") || match.split(":").length === 8), replace: () => FILTERED },
];

/** A rule of the settings as text rules (an IP rule is two); `password` and unusable patterns give none. */
export function textRulesOf(rule: ScrubRule, hashKey: string): TextRule[] {
  const replace = replacerOf(rule.method, hashKey, rule.replacement);
  switch (rule.type) {
    case "creditcard":
      return [{ regex: CARD_CANDIDATE, accept: isCard, replace }];
    case "email":
      return [{ regex: EMAIL, replace }];
    case "ip":
      return IP_REMOVAL_RULES.map((ip) => ({ ...ip, replace }));
    case "iban":
      return [{ regex: IBAN, replace }];
    case "uuid":
      return [{ regex: UUID, replace }];
    case "password":
      return [];
    case "pattern": {
      // Saved patterns were checked (data-settings.service.ts); one that no longer compiles scrubs nothing rather than failing ingest.
      const compiled = compileLinear(rule.pattern ?? "");
      return compiled.ok ? [{ regex: compiled.regex, replace, msPerChar: patternCost(compiled.regex) }] : [];
    }
  }
}

/** Milliseconds of user-pattern scanning one event may spend (by patternCost's measure). */
export const PATTERN_BUDGET_MS = 30;

/** What is left of an event's pattern budget. */
export interface PatternBudget {
  ms: number;
}

/**
 * The text with every rule applied in order, and how many values were replaced. A text the
 * event's pattern budget no longer covers is not stored unchecked: it becomes `[Filtered]` whole
 * (fail closed — the organization said these values must not be stored).
 */
export function applyTextRules(text: string, rules: readonly TextRule[], budget: PatternBudget): { text: string; count: number } {
  let count = 0;
  let out = text;
  for (const rule of rules) {
    if (rule.msPerChar !== undefined) {
      budget.ms -= rule.msPerChar * out.length;
      if (budget.ms < 0) return { text: FILTERED, count: count + 1 };
    }
    rule.regex.lastIndex = 0;
    if (!rule.regex.test(out)) continue;
    rule.regex.lastIndex = 0;
    out = out.replace(rule.regex, (match) => {
      // An empty match (a pattern like `x*`) is no value; accept() refuses look-alikes.
      if (match === "" || (rule.accept && !rule.accept(match))) return match;
      count += 1;
      return rule.replace(match);
    });
  }
  return { text: out, count };
}
