/**
 * Replaces the variable parts of a message (ids, addresses, values) with placeholders, so that
 * "Order 1234 not found" and "Order 98 not found" group together when there is no stack to tell
 * them apart. Order matters: structured tokens (URLs, emails, UUIDs, dates, IPs, hex) go before the
 * catch-all number rule would cut them into pieces.
 *
 * Every pattern has bounded repetition and the input is capped, so a hostile message cannot make
 * grouping slow (no catastrophic backtracking on the ingest hot path).
 */
const MAX_INPUT = 1024;

const RULES: [RegExp, string][] = [
  [/\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s"'<>()]{1,1024}/gi, "<url>"],
  [/[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}/g, "<email>"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>"],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g, "<date>"],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?\b/g, "<ip>"],
  // IPv6, including "::" compression; standalone tokens only, so C++/Ruby "Foo::bar" stays.
  [/(?<![\w:])(?=[0-9a-f:]{0,39}[0-9a-f])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\w:])/gi, "<ip>"],
  [/\b0x[0-9a-f]{1,64}\b/gi, "<hex>"],
  // Long hex runs with at least one digit and one letter: hashes, ids, addresses without 0x.
  [/\b(?=[0-9a-f]{0,63}\d)(?=[0-9a-f]{0,63}[a-f])[0-9a-f]{8,64}\b/gi, "<hex>"],
  // Quoted values only when the quotes stand alone, so "can't" and "user's" are left intact.
  [/(^|[\s([{:=,])(['"`])[^'"`\n]{0,200}\2(?=$|[\s)\]}.,:;!?])/g, "$1<quoted>"],
  [/\d+(?:[.,]\d+)*/g, "<num>"],
];

export function normalizeMessage(message: string): string {
  let text = message.length > MAX_INPUT ? message.slice(0, MAX_INPUT) : message;
  for (const [pattern, placeholder] of RULES) text = text.replace(pattern, placeholder);
  return text.replace(/\s+/g, " ").trim();
}
