import { isPlainObject, readString, trimString } from "./value-coercion";

// printf-style placeholders used by Python logging (%s, %d, %(name)s) and JS console (%o, %j).
const PLACEHOLDER = /%(?:\((\w{1,64})\))?[-#0 +]?\d{0,3}(?:\.\d{1,3})?([sdirfxXoOjc%])/g;

function show(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Brace placeholders: Python's str.format (`{}`, `{0}`, `{name}`), .NET composite formatting
 * (`{0,10:N2}`) and message templates (`{UserId}`, `{@Order}`). `{{` and `}}` are literal braces.
 */
const BRACE_PLACEHOLDER = /\{\{|\}\}|\{([@$]?)(\d{1,3}|[A-Za-z_][\w.]{0,63})?(?:[,:!][^{}]{0,64})?\}/g;

function formatBraces(template: string, params: unknown): string {
  let next = 0;
  // Message templates send named holes with positional params: the n-th distinct name is params[n].
  const namedOrder = new Map<string, number>();
  return template.replace(BRACE_PLACEHOLDER, (whole, _sigil: string, hole: string | undefined) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    if (hole === undefined) return Array.isArray(params) && next < params.length ? show(params[next++]) : whole;
    if (/^\d+$/.test(hole)) {
      const index = Number(hole);
      if (Array.isArray(params)) return index < params.length ? show(params[index]) : whole;
      return isPlainObject(params) && Object.hasOwn(params, hole) ? show(params[hole]) : whole;
    }
    if (isPlainObject(params)) return Object.hasOwn(params, hole) ? show(params[hole]) : whole;
    if (!Array.isArray(params)) return whole;
    if (!namedOrder.has(hole)) namedOrder.set(hole, namedOrder.size);
    const index = namedOrder.get(hole)!;
    return index < params.length ? show(params[index]) : whole;
  });
}

/**
 * Substitutes logentry params into the template, the way the sending logger would have: printf
 * style (`%s`, `%(name)s`) when the template has such placeholders, else brace style.
 */
export function formatLogentry(template: string, params: unknown): string {
  PLACEHOLDER.lastIndex = 0;
  if (!PLACEHOLDER.test(template.replaceAll("%%", ""))) return formatBraces(template, params);
  PLACEHOLDER.lastIndex = 0;
  let next = 0;
  return template.replace(PLACEHOLDER, (whole, name: string | undefined, conversion: string) => {
    if (conversion === "%") return "%";
    if (name !== undefined) {
      return isPlainObject(params) && Object.hasOwn(params, name) ? show(params[name]) : whole;
    }
    if (!Array.isArray(params) || next >= params.length) return whole;
    return show(params[next++]);
  });
}

export interface EventMessage {
  message: string | null;
  logentryTemplate: string | null;
}

/**
 * `message` may be a plain string (captureMessage) or, like `logentry` and the old
 * `sentry.interfaces.Message`, an object {formatted, message, params}. Prefer what the SDK
 * formatted itself; otherwise format the template with its params.
 */
export function readEventMessage(event: Record<string, unknown>, maxLength: number): EventMessage {
  const entry = [event.logentry, event["sentry.interfaces.Message"], event.message].find(isPlainObject);
  const plain = readString(event.message, maxLength);
  if (!entry) return { message: plain, logentryTemplate: null };

  const template = typeof entry.message === "string" && entry.message !== "" ? entry.message : null;
  const formatted =
    readString(entry.formatted, maxLength) ??
    (template !== null && entry.params !== undefined ? trimString(formatLogentry(template, entry.params), maxLength) : null) ??
    (template !== null ? trimString(template, maxLength) : null) ??
    plain;
  return { message: formatted, logentryTemplate: template === null ? null : trimString(template, maxLength) };
}
