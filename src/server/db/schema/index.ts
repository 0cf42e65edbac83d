// The one barrel in the codebase: drizzle and better-auth want the whole schema as one object.
export * from "./auth";
export * from "./projects";
export * from "./issues";
export * from "./issue-fingerprints";
export * from "./occurrences";
export * from "./rollups";
export * from "./issue-tags";
export * from "./issue-activities";
export * from "./ingest";
export * from "./analytics-events";
export * from "./billing";
export * from "./api-tokens";
export * from "./waf";
export * from "./auth-roles-devices";
export * from "./jobs";
export * from "./alerts";
export * from "./conversations";
