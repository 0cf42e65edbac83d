import { normalizeMessage } from "./message-normalizer";

/**
 * Grouping v2's message parameterisation: v1's rules (message-normalizer.ts, kept unchanged so v1
 * fingerprints never move) plus the kinds of data v1 left in: durations, file paths and ids that
 * mix letters and digits (`INV-2024-00359`, `cus_db0791`, `job-1221`, `t817`). The raw message is
 * kept for display; only the fingerprint sees the template.
 *
 * Patterns have bounded repetition and the input is capped (as in v1): this runs on the hot path.
 */
const MAX_INPUT = 1024;

const BEFORE_V1: [RegExp, string][] = [
  // URLs first: their paths and ids are one value, not several.
  [/\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s"'<>()]{1,1024}/gi, "<url>"],
  // Absolute paths (POSIX or Windows drive) of two or more segments.
  [/(^|[\s(=:'"])(?:[A-Za-z]:\\|\/)[\w.@+~-]{1,128}(?:[\\/][\w.@+~-]{1,128}){1,32}[\\/]?/g, "$1<path>"],
  // 62m55s, 974ms, 1.64s, 3h, 250 ms.
  // Standalone only, so the "9d" of a hex id is not taken for nine days.
  [
    /(?<![\w.-])\d{1,12}(?:[.,]\d{1,9})?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hrs?|hours?|d|days?)(?:\d{1,12}(?:ms|s|m|h))*(?![\w-])/gi,
    "<duration>",
  ],
];

// After v1's rules a token mixing letters and digits reads `INV-<num>-<num>`, `cus_db<num>`, `t<num>`:
// an id. A token is a run of word characters, hyphens and placeholders; it is an id when it holds a
// <num> and a letter outside any placeholder.
const TOKEN = /[\w<>-]{1,256}/g;
const PLACEHOLDER = /<[a-z]{1,16}>/g;
function idOrToken(token: string): string {
  if (!token.includes("<num>")) return token;
  return /[A-Za-z_]/.test(token.replace(PLACEHOLDER, "")) ? "<id>" : token;
}

export interface TemplateOptions {
  /**
   * Keep a network error's target port (`connect ECONNREFUSED 127.0.0.1:6390` → `… <ip>:6390`):
   * with no in-app frame, the target is what tells two unreachable services apart, while the
   * address of one service may change between hosts.
   */
  keepTargetPort?: boolean;
}

const NETWORK_ERROR = /\b(?:ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE|ECONNABORTED)\b/;
const TARGET = /(?:\[[0-9a-f:]{2,39}\]|[\w.-]{1,253}):(\d{1,5})\b/i;

function templateOf(text: string): string {
  let result = text;
  for (const [pattern, placeholder] of BEFORE_V1) result = result.replace(pattern, placeholder);
  return normalizeMessage(result).replace(TOKEN, idOrToken);
}

/**
 * Templates of recent texts, per option. An error's message repeats with every event of the issue,
 * and thirteen regular expressions per event were a measurable part of ingest; a pure function of
 * a capped input, so a bounded memo is safe. Cleared when full: simpler than LRU, and a hot message
 * is back after one event.
 */
const MEMO_ENTRIES = 1000;
const memo = [new Map<string, string>(), new Map<string, string>()];

export function messageTemplate(raw: string, options: TemplateOptions = {}): string {
  const text = raw.length > MAX_INPUT ? raw.slice(0, MAX_INPUT) : raw;
  const cache = memo[options.keepTargetPort ? 1 : 0];
  const known = cache.get(text);
  if (known !== undefined) return known;
  if (cache.size >= MEMO_ENTRIES) cache.clear();
  const template = computeTemplate(text, options);
  cache.set(text, template);
  return template;
}

function computeTemplate(text: string, options: TemplateOptions): string {
  const target = options.keepTargetPort && NETWORK_ERROR.test(text) ? TARGET.exec(text) : null;
  if (!target) return templateOf(text);
  // The parts around the target are parameterised as usual; the target keeps its port.
  const before = text.slice(0, target.index);
  const after = text.slice(target.index + target[0].length);
  return `${templateOf(before)} ${templateOf(target[0].slice(0, -target[1].length - 1))}:${target[1]} ${templateOf(after)}`.replace(/\s+/g, " ").trim();
}
