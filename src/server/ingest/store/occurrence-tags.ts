import type { NormalizedOccurrence } from "../../../shared/occurrence.types";
import { storableText } from "../normalize/storable-text";
import { indexedText } from "./indexed-text";

const MAX_TAGS_PER_EVENT = 50;

type TaggedFields = Pick<NormalizedOccurrence, "environment" | "release" | "level" | "serverName" | "handled" | "tags">;

/**
 * One exception's tags: its SDK event's own tags plus the fields people filter by, made storable
 * and capped for the (issue, key, value) index. Ingest counts these into the breakdown;
 * the exception screen lists them for the one exception (issue 37, item 12), so both read this
 * one rule. Capped here, not when written, so that two spellings of one stored value sum as one row.
 * Its SQL twin recounts stored exceptions on unmerge (issue-unmerge.queries.ts): change both together.
 */
export function occurrenceTags(occ: Partial<TaggedFields>): Record<string, string> {
  const tags: Record<string, string> = {};
  const add = (key: string, value: string | null | undefined) => {
    if (typeof value === "string" && value && Object.keys(tags).length < MAX_TAGS_PER_EVENT)
      tags[indexedText(storableText(key))] = indexedText(storableText(value));
  };
  add("environment", occ.environment);
  add("release", occ.release);
  add("level", occ.level);
  add("server_name", occ.serverName);
  add("handled", occ.handled === null || occ.handled === undefined ? null : occ.handled ? "yes" : "no");
  // Documents stored before a field existed lack it: nothing to add then.
  for (const [key, value] of Object.entries(occ.tags ?? {})) add(key, value);
  return tags;
}
