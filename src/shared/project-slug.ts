import { z } from "zod";

/**
 * A project's URL name, unique in its organization: what `SENTRY_PROJECT` and the Sentry tool API
 * (`/api/0/projects/{org}/{project}/…`) name it by, beside its number. Never only digits, so a
 * value that is all digits is always the project number.
 */
export const PROJECT_SLUG_MAX_LENGTH = 50;
export const PROJECT_SLUG_FALLBACK = "project";
export const PROJECT_SLUG_MESSAGE = "Slugs are lowercase letters, digits and single dashes, at most 50 characters, and not only digits";
export const PROJECT_SLUG_TAKEN_MESSAGE = "Another project of this organization already uses this slug";

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ONLY_DIGITS = /^[0-9]+$/;

export const isProjectSlug = (value: string) => value.length <= PROJECT_SLUG_MAX_LENGTH && SLUG_PATTERN.test(value) && !ONLY_DIGITS.test(value);

export const ProjectSlug = z.string().trim().toLowerCase().refine(isProjectSlug, PROJECT_SLUG_MESSAGE);

/** Cuts to `max` characters without leaving a dash at either end. */
function cut(value: string, max: number) {
  return value.slice(0, max).replace(/^-+|-+$/g, "");
}

/** The slug a name suggests: lowercase ASCII letters and digits, other runs as one dash, at most 50 characters. */
export function slugFromName(name: string): string {
  const ascii = name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  let slug = cut(ascii.toLowerCase().replace(/[^a-z0-9]+/g, "-"), PROJECT_SLUG_MAX_LENGTH);
  if (slug === "") return PROJECT_SLUG_FALLBACK;
  if (ONLY_DIGITS.test(slug)) slug = cut(`${PROJECT_SLUG_FALLBACK}-${slug}`, PROJECT_SLUG_MAX_LENGTH);
  return slug;
}

/** `base`, else `base-2`, `base-3`… (the base shortened to keep 50 characters), the first that `taken` lacks. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${cut(base, PROJECT_SLUG_MAX_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
