import { and, asc, count, desc, eq, gte, lte, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { ListEventsInput } from "../../shared/triage.inputs";
import type { Db } from "../db/client";
import { offsetOf } from "../db/paging";
import { events } from "../db/schema/index";

type ListEventsQuery = z.output<typeof ListEventsInput>;

const DEFAULT_SORT: ListEventsQuery["sort"] = [{ field: "createdAt", direction: "DESC" }];
const SORT_COLUMNS = { createdAt: events.createdAt, name: events.name } as const;

// Served by events_org_project_created_idx, or events_org_project_name_created_idx when a name is given.
function eventFilter(organizationId: string, projectId: string, query: ListEventsQuery): SQL {
  return and(
    eq(events.organizationId, organizationId),
    eq(events.projectId, projectId),
    query.name ? eq(events.name, query.name) : undefined,
    query.dateFrom ? gte(events.createdAt, query.dateFrom) : undefined,
    query.dateTo ? lte(events.createdAt, query.dateTo) : undefined,
  )!;
}

export async function selectEventPage(db: Db, organizationId: string, projectId: string, query: ListEventsQuery) {
  const where = eventFilter(organizationId, projectId, query);
  const sort = query.sort.length > 0 ? query.sort : DEFAULT_SORT;
  const order = sort.map(({ field, direction }) => (direction === "ASC" ? asc(SORT_COLUMNS[field]) : desc(SORT_COLUMNS[field])));
  const last = sort.at(-1)?.direction ?? "DESC";
  const rows = await db
    .select({ id: events.id, projectId: events.projectId, name: events.name, properties: events.properties, createdAt: events.createdAt })
    .from(events)
    .where(where)
    .orderBy(...order, last === "ASC" ? asc(events.id) : desc(events.id))
    .limit(query.size)
    .offset(offsetOf(query.page, query.size));
  const [{ total }] = await db.select({ total: count() }).from(events).where(where);
  return { rows, total };
}
