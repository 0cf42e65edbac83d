import type { z } from "zod";
import type { Paged } from "../../shared/paging";
import type { ListEventsInput } from "../../shared/triage.inputs";
import type { EventListItem } from "../../shared/triage.views";
import { toPaged } from "../db/paging";
import type { ServiceContext } from "../context";
import { requireProject } from "../projects/project-scope";
import { selectEventPage } from "./event.queries";

/** The project's analytics events (native SDK `POST /api/v1/events`), newest first by default. */
export async function listEvents(ctx: ServiceContext, input: z.output<typeof ListEventsInput>): Promise<Paged<EventListItem>> {
  await requireProject(ctx, input.projectId);
  const { rows, total } = await selectEventPage(ctx.db, ctx.org.organizationId, input.projectId, input);
  const items = rows.map((row) => ({ ...row, properties: (row.properties ?? {}) as Record<string, unknown> }));
  return toPaged(items, total, input.page, input.size);
}
