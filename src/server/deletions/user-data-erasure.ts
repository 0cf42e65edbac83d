import { createHash } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import type { Logger } from "../logger";
import { yieldTurn } from "./batch-delete";
import { addDone, type DeletionRow } from "./deletion.queries";

/** Which of the SDK's `user` identifiers names the person, and its value. */
export interface ErasedIdentity {
  field: "id" | "email" | "ip";
  value: string;
}

/** The audit's name for a person: the identifier's kind and a SHA-256 of its value, never the value. */
export function erasureTarget(identity: ErasedIdentity): string {
  const kind = identity.field === "id" ? "userId" : identity.field === "email" ? "email" : "ipAddress";
  return `${kind}:${createHash("sha256").update(identity.value).digest("hex")}`;
}

/** The `user_key` ingest gives an occurrence whose first identifier is this one (pending-occurrence.ts). */
const userKeyOf = (identity: ErasedIdentity) => `${identity.field}:${identity.value}`;

interface Page {
  last_received_at: string | null;
  last_id: string | null;
  scanned: string | number;
  erased: string | number;
}

/**
 * Removes every occurrence of the organization whose `user` carries the identifier. An occurrence
 * stores only its first identifier in `user_key` (id, else email, …), so the rest is in the event's
 * JSON: each project's occurrences are read a page at a time along their (organization, project,
 * received) index, a cheap text search skips the pages' rows that cannot hold the value, and only
 * the remaining ones are parsed. No index on the JSON is needed (an erasure is rare; an index
 * would cost every ingest). Each page is one statement, so ingest never waits; a retry rescans from
 * the newest row, which is cheap for what is already gone. The person's rows in `issue_users` and
 * `release_health_users` go too; issue counters keep their history (documented).
 */
export async function eraseUserData(
  deps: { db: Db; logger: Logger; batchSize: number; onBatch?: () => Promise<void> },
  deletion: DeletionRow,
  identity: ErasedIdentity,
) {
  const { db } = deps;
  const organizationId = deletion.organizationId;
  const key = userKeyOf(identity);
  // The value as JSON.stringify wrote it into `data` (escapes included): the text search's needle.
  const needle = JSON.stringify(identity.value).slice(1, -1);
  const path = `{user,${identity.field}}`;
  const projects = await executeRows<{ id: string }>(db, sql`select id from projects where organization_id = ${organizationId} order by id`);
  for (const project of projects) {
    let cursor: { receivedAt: string; id: string } | null = null;
    for (;;) {
      const after: SQL = cursor ? sql`and (received_at, id) < (${cursor.receivedAt}::timestamptz, ${cursor.id}::uuid)` : sql``;
      const [page]: Page[] = await executeRows<Page>(
        db,
        sql`with page as (
              select id, received_at, user_key, data from occurrences
               where organization_id = ${organizationId} and project_id = ${project.id}::uuid ${after}
               order by received_at desc, id desc
               limit ${deps.batchSize}),
            matched as (
              select id from page
               where user_key = ${key} or (strpos(data, ${needle}) > 0 and (data::jsonb #>> ${path}::text[]) = ${identity.value})),
            erased as (
              delete from occurrences o using matched
               where o.organization_id = ${organizationId} and o.project_id = ${project.id}::uuid and o.id = matched.id
               returning 1)
            select (select received_at::text from page order by received_at, id limit 1) as last_received_at,
                   (select id::text from page order by received_at, id limit 1) as last_id,
                   (select count(*) from page) as scanned,
                   (select count(*) from erased) as erased`,
      );
      const erased = Number(page?.erased ?? 0);
      if (erased > 0) await addDone(db, deletion.id, erased);
      await deps.onBatch?.();
      if (!page?.last_id || !page.last_received_at || Number(page.scanned) < deps.batchSize) break;
      cursor = { receivedAt: page.last_received_at, id: page.last_id };
      await yieldTurn();
    }
  }
  await db.execute(sql`delete from issue_users u using issues i where u.issue_id = i.id and i.organization_id = ${organizationId} and u.user_key = ${key}`);
  await db.execute(sql`delete from release_health_users where organization_id = ${organizationId} and user_key = ${key}`);
}
