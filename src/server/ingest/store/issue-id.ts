import { hash } from "node:crypto";

/**
 * An issue's id derived from (project, fingerprint). Knowing it before the database does lets one
 * statement insert the occurrences and upsert their issues together (see batch-commit.ts), and
 * every replica computes the same id for the same group.
 */
export function issueIdFor(projectId: string, fingerprint: string): string {
  // One-shot hash(): this runs for every event, and a Hash object costs about as much again.
  const hex = hash("sha256", `${projectId}\u0000${fingerprint}`, "hex");
  // Shaped as an RFC 4122 v8 ("custom") UUID so it fits the uuid column and reads as one.
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
