import { z } from "zod";

/**
 * PostgreSQL refuses U+0000 in text (the statement fails, which surfaced as a 500), so every
 * free-text input refuses it up front with this message instead.
 */
export const NUL_MESSAGE = "must not contain the NUL character (U+0000)";

export const hasNul = (value: string) => value.includes("\u0000");

/**
 * Trimmed text of `min` (default 0) to `max` characters, without NUL; the messages are what users
 * read, so the client forms and the server say the same.
 */
export function boundedText(max: number, tooLong: string, min?: { length: number; message: string }) {
  const trimmed = z.string().trim();
  return (min ? trimmed.min(min.length, min.message) : trimmed).max(max, tooLong).refine((value) => !hasNul(value), NUL_MESSAGE);
}

/** Logos and pictures are links; browsers and proxies balk at far longer URLs anyway. */
export const IMAGE_URL_MAX_LENGTH = 2048;

export const ImageUrl = z
  .string()
  .max(IMAGE_URL_MAX_LENGTH, "Image URLs are at most 2048 characters")
  .refine((value) => !hasNul(value), NUL_MESSAGE);
