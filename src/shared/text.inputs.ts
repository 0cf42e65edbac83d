import { z } from "zod";

/**
 * PostgreSQL refuses U+0000 in text (the statement fails, which surfaced as a 500), so every
 * free-text input refuses it up front with this message instead.
 */
export const NUL_MESSAGE = "must not contain the NUL character (U+0000)";

export const hasNul = (value: string) => value.includes("\u0000");

/**
 * Text of at most `max` characters as sent (the auth service stores what it was sent, so "ab"
 * plus a megabyte of spaces must not pass by trimming first), then trimmed, at least `min.length`
 * long, without NUL. The messages are what users read: client forms and server say the same.
 */
export function boundedText(max: number, tooLong: string, min?: { length: number; message: string }) {
  const trimmed = z.string().max(max, tooLong).trim();
  return (min ? trimmed.min(min.length, min.message) : trimmed).refine((value) => !hasNul(value), NUL_MESSAGE);
}

/** Logos and pictures are links; browsers and proxies balk at far longer URLs anyway. */
export const IMAGE_URL_MAX_LENGTH = 2048;

export const ImageUrl = z
  .string()
  .max(IMAGE_URL_MAX_LENGTH, "Image URLs are at most 2048 characters")
  .refine((value) => !hasNul(value), NUL_MESSAGE);
