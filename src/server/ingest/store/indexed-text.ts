/**
 * PostgreSQL refuses a btree index entry larger than about a third of a page (2,704 bytes on 8 KB
 * pages, `54000 index row size … exceeds btree maximum`), counted in the database's UTF-8 bytes
 * after compression — which a long text of distinct multi-byte characters defeats. The normaliser
 * caps texts in UTF-16 units, up to three times as many bytes, and some indexed values are joined
 * from several capped parts (a crash frame is `path|function`): a cap in UTF-8 bytes at the store
 * keeps every event storable. 1,024 bytes leaves room for two such texts in one entry (a tag's key
 * and value) beside the ids.
 */
export const INDEXED_TEXT_MAX_BYTES = 1024;

/**
 * `text` cut to at most `maxBytes` UTF-8 bytes, at a character boundary: never inside a surrogate
 * pair (a lone surrogate is counted as the 3-byte U+FFFD it is stored as). Returns `text` itself
 * when it fits, found by its length alone for any text shorter than a third of `maxBytes`.
 */
export function capUtf8Bytes(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes (a pair, two units, is 4): short texts need no counting.
  if (text.length * 3 <= maxBytes) return text;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1));
    bytes += unit < 0x80 ? 1 : unit < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes > maxBytes) return text.slice(0, i);
    if (pair) i += 1;
  }
  return text;
}

const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** A text bound for an indexed column, capped to INDEXED_TEXT_MAX_BYTES. */
export const indexedText = (text: string) => capUtf8Bytes(text, INDEXED_TEXT_MAX_BYTES);

/** As indexedText, for a nullable column. */
export const indexedTextOrNull = (text: string | null) => (text === null ? null : capUtf8Bytes(text, INDEXED_TEXT_MAX_BYTES));
