/**
 * What a project key may look like, wherever an SDK sends it (the DSN's public key in Sentry auth,
 * `x-api-key` from the native SDKs). Keys are looked up in the database and echoed in logs: keep
 * them to a boring alphabet, and refuse anything else before it reaches either.
 */
export const KEY_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;
