import type { Request } from "express";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Query strings send empty values (`?status=&page=`); they mean "not given", so defaults apply. */
function withoutEmpty(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== "" && !(Array.isArray(value) && value.every((item) => item === ""))));
}

/**
 * Query parameters plus the path's ids. Path ids win, so `?projectId=` (or a body's projectId)
 * can never move a call to another project; `:orgId` is dropped because membership decides it.
 */
export function queryOf(req: Request): Record<string, unknown> {
  const { orgId: _orgId, ...ids } = req.params as Record<string, string>;
  return { ...withoutEmpty(isRecord(req.query) ? req.query : {}), ...ids };
}

/** The JSON body plus the path's ids (which win); unknown keys such as organizationId are stripped by zod. */
export function bodyOf(req: Request): Record<string, unknown> {
  const { orgId: _orgId, ...ids } = req.params as Record<string, string>;
  return { ...(isRecord(req.body) ? req.body : {}), ...ids };
}
