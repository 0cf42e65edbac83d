/**
 * Environment buckets (spec §3): the product's enumeration. SDKs send free-form names; ingest
 * stores each event's bucket beside its name, the issue list maps the names it holds to buckets,
 * and the client filters and labels by bucket — all through this file.
 */
export const ENVIRONMENTS = ["PRODUCTION", "STAGING", "DEVELOPMENT"] as const;
export type EnvironmentBucket = (typeof ENVIRONMENTS)[number];

export const ENVIRONMENT_LABELS: Record<EnvironmentBucket, string> = { PRODUCTION: "Production", STAGING: "Staging", DEVELOPMENT: "Development" };

const PRODUCTION = new Set(["prod", "production", "live"]);
const STAGING = new Set(["staging", "stage", "preprod", "pre-prod", "qa", "test", "testing", "uat"]);

/**
 * Maps an SDK environment string to its bucket. No name means production (the SDKs' default).
 * Unknown names fall to DEVELOPMENT so that an odd environment never pollutes production counts;
 * the original string is still stored on the occurrence.
 */
export function toEnvironmentBucket(environment: string | null | undefined): EnvironmentBucket {
  const key = (environment ?? "").trim().toLowerCase();
  if (key === "" || PRODUCTION.has(key)) return "PRODUCTION";
  if (STAGING.has(key)) return "STAGING";
  return "DEVELOPMENT";
}
