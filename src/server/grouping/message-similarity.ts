/**
 * How close two message templates are, 0–1: the overlap of their word sets (Jaccard). Templates
 * already have their data replaced by placeholders, so what is compared is the wording.
 */
const words = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}<>_]+/u)
      .filter((w) => w.length > 0),
  );

export function messageSimilarity(a: string | null, b: string | null): number {
  if (!a || !b) return 0;
  const left = words(a);
  const right = words(b);
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  return shared / (left.size + right.size - shared);
}
