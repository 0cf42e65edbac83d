/**
 * Tool results go into the model's context, whose size is the budget of every answer: a 1 MB
 * event must not take it whole. Long strings are cut and long arrays shortened, keeping the end
 * of stack traces (the crashing frame is last) and saying what was left out.
 */
export interface TrimOptions {
  maxString: number;
  maxArray: number;
  maxDepth: number;
}

const DEFAULTS: TrimOptions = { maxString: 2_000, maxArray: 30, maxDepth: 8 };

export function trimForModel(value: unknown, options: Partial<TrimOptions> = {}, depth = 0): unknown {
  const limits = { ...DEFAULTS, ...options };
  if (typeof value === "string")
    return value.length > limits.maxString ? `${value.slice(0, limits.maxString)}… [${value.length - limits.maxString} more characters]` : value;
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value.toISOString();
  if (depth >= limits.maxDepth) return "[nested too deep]";
  if (Array.isArray(value)) {
    const kept = value.length > limits.maxArray ? value.slice(-limits.maxArray) : value;
    const trimmed = kept.map((item) => trimForModel(item, limits, depth + 1));
    return value.length > limits.maxArray ? [`[${value.length - limits.maxArray} earlier items left out]`, ...trimmed] : trimmed;
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimForModel(item, limits, depth + 1)]));
}

/** Shrinks the limits until the JSON fits `maxChars` (a few passes at most). */
export function fitToBudget(value: unknown, maxChars: number): unknown {
  let limits: TrimOptions = { ...DEFAULTS };
  let trimmed = trimForModel(value, limits);
  for (let pass = 0; pass < 4 && JSON.stringify(trimmed).length > maxChars; pass += 1) {
    limits = {
      maxString: Math.max(120, Math.floor(limits.maxString / 3)),
      maxArray: Math.max(5, Math.floor(limits.maxArray / 2)),
      maxDepth: Math.max(4, limits.maxDepth - 1),
    };
    trimmed = trimForModel(value, limits);
  }
  return trimmed;
}
