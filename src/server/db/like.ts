/** `%term%` for ILIKE with the user's own `%`, `_` and `\` matched literally (backslash is PostgreSQL's default escape). */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
