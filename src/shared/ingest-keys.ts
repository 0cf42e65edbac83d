/**
 * The longest an SDK key keeps working after it is revoked or rotated, or its project deleted. The
 * replica that made the change forgets the key at once; every other replica trusts its cached copy
 * of a valid key for at most this long (ingest/project-key.cache.ts). The UI quotes it.
 */
export const KEY_REVOCATION_SECONDS = 10;
