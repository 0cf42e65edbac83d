import type { ParsedSourceMap } from "./parsed-source-map";

/**
 * Parsed source maps (or parts of their indexes) by key (derived from the artifact's SHA-1: uploaded
 * files are content-addressed and never change), least recently used first out. The bound is counted
 * in `bytes`, for a map the bytes as uploaded (the one size known before parsing); an entry larger
 * than the whole budget is used once and not kept.
 */
export class ParsedMapCache<Entry extends { bytes: number } = ParsedSourceMap> {
  /** Insertion order is use order: a hit is moved to the end, eviction takes from the front. */
  private readonly entries = new Map<string, Entry>();
  private used = 0;

  constructor(private readonly budgetBytes: number) {}

  get bytes() {
    return this.used;
  }

  get size() {
    return this.entries.size;
  }

  get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, parsed: Entry) {
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.used -= previous.bytes;
    }
    if (parsed.bytes > this.budgetBytes) return;
    for (const [oldest, entry] of this.entries) {
      if (this.used + parsed.bytes <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
    this.entries.set(key, parsed);
    this.used += parsed.bytes;
  }
}
