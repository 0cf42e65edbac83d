import { z } from "zod";
import { IngestError } from "../http/ingest-error";
import { storableText } from "../normalize/storable-text";
import { storableJsonValue } from "../store/json-escapes";

/**
 * Body of native `POST /api/v1/events`: a product-analytics record (name + JSON properties) shown
 * on the Events screen; not an error occurrence.
 */
export const NativeEventInput = z.object({
  name: z.string().min(1).max(200),
  properties: z.record(z.string(), z.unknown()).optional(),
});
export type NativeEventInput = z.infer<typeof NativeEventInput>;

/**
 * Validates a native event body; throws IngestError `malformed` (400) with zod's explanation.
 * U+0000 and lone surrogates become U+FFFD: valid JSON, but jsonb and text refuse them, and the
 * insert would fail on every retry.
 */
export function parseNativeEvent(body: unknown): NativeEventInput {
  const parsed = NativeEventInput.safeParse(body);
  if (!parsed.success) throw new IngestError("malformed", z.prettifyError(parsed.error));
  const { name, properties } = parsed.data;
  return { name: storableText(name), ...(properties === undefined ? {} : { properties: storableJsonValue(properties) }) };
}
