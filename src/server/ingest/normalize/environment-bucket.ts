/** The product's environment enumeration (spec §3); SDKs send free-form strings. */
export const ENVIRONMENT_BUCKETS = ["PRODUCTION", "STAGING", "DEVELOPMENT"] as const;
export type EnvironmentBucket = (typeof ENVIRONMENT_BUCKETS)[number];

const PRODUCTION = new Set(["prod", "production", "live"]);
const STAGING = new Set(["staging", "stage", "preprod", "pre-prod", "qa", "test", "testing", "uat"]);

/**
 * Maps an SDK environment string to the enum used by filters. Unknown names fall to DEVELOPMENT
 * so that an odd environment never pollutes production counts; the original string is still
 * stored on the occurrence.
 */
export function toEnvironmentBucket(environment: string | null | undefined): EnvironmentBucket {
  const key = (environment ?? "").trim().toLowerCase();
  if (key === "" || PRODUCTION.has(key)) return "PRODUCTION";
  if (STAGING.has(key)) return "STAGING";
  return "DEVELOPMENT";
}
