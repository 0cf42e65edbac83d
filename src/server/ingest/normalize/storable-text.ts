/** String.prototype.isWellFormed/toWellFormed (ES2024, Node 20) are not in the ES2023 lib we compile against. */
interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/**
 * A string PostgreSQL can store as text: U+0000 and lone UTF-16 surrogates (half a pair, which
 * only broken or hostile clients send) become U+FFFD. For values that travel as strings rather
 * than inside JSON text (tag keys and values, which are also map keys before they are written, so
 * two spellings of one stored value must meet before the write). Nearly always returns `value`.
 */
export function storableText(value: string): string {
  const text = value as unknown as WellFormedString;
  if (text.isWellFormed() && !value.includes("\u0000")) return value;
  return text.toWellFormed().replaceAll("\u0000", "\ufffd");
}
