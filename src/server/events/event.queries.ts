import { and, count, eq, gte, lte, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { ListEventsInput } from "../../shared/triage.inputs";
import type { Db } from "../db/client";
import { indexOrder } from "../db/order";
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
  const order = [...sort.map(({ field, direction }) => indexOrder(SORT_COLUMNS[field], direction)), indexOrder(events.id, sort.at(-1)!.direction)];
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ id: events.id, projectId: events.projectId, name: events.name, properties: events.properties, createdAt: events.createdAt })
      .from(events)
      .where(where)
      .orderBy(...order)
      .limit(query.size)
      .offset(offsetOf(query.page, query.size)),
    db.select({ total: count() }).from(events).where(where),
  ]);
  return { rows, total };
}
