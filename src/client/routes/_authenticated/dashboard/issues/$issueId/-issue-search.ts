import { z } from "zod";

/** The screens under one issue need its project (spec §2: required projectId, a uuid). */
export const IssueScopeSearch = z.object({ projectId: z.uuid() });
export type IssueScopeSearchInput = z.input<typeof IssueScopeSearch>;

export const Uuid = z.uuid();
