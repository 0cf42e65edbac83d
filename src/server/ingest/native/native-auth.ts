import { IngestError } from "../http/ingest-error";
import { KEY_SHAPE } from "../key-shape";

/**
 * The native `@traque/*` SDKs authenticate with `x-api-key: <project key>` (the same key as the
 * DSN's public key). Missing or repeated-and-different → 401, as the original product answered.
 */
export function extractNativeApiKey(headers: Record<string, string | string[] | undefined>): string {
  const raw = headers["x-api-key"];
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((v) => v.trim());
  if (values.length === 0 || values[0] === "") throw new IngestError("auth_invalid", "missing x-api-key header");
  if (values.some((v) => v !== values[0])) throw new IngestError("auth_conflict", "conflicting x-api-key headers");
  if (!KEY_SHAPE.test(values[0])) throw new IngestError("auth_invalid", "x-api-key has an invalid format");
  return values[0];
}
