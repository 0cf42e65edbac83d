import type { AppServices } from "../context";
import { AppError } from "../errors";
import type { OrgScope } from "../organizations/org-scope";
import type { AlertContext } from "./alert-rule.service";

/** The rule services' context from a request's (tRPC or REST): the org scope plus the secret box. */
export function alertCtx(ctx: Pick<AppServices, "db" | "secretBox"> & { org: OrgScope }): AlertContext {
  if (!ctx.secretBox) throw new AppError("SERVICE_UNAVAILABLE", "Alerts are not running on this server");
  return { db: ctx.db, org: ctx.org, secretBox: ctx.secretBox };
}
