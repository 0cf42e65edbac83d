const HEX32 = /^[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Canonical event id: 32 lowercase hex digits. SDKs send the bare form; some older ones send a
 * dashed UUID. Anything else (e.g. `../../x`) is refused, because the id ends up in responses,
 * logs and lookups and must never carry attacker-chosen text.
 */
export function normalizeEventId(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 36) return null;
  const lower = value.toLowerCase();
  if (HEX32.test(lower)) return lower;
  if (UUID.test(lower)) return lower.replaceAll("-", "");
  return null;
}
