import { and, eq } from "drizzle-orm";
import { parseRoles } from "../../shared/roles";
import type { Mailer } from "../auth/mailer";
import type { Db } from "../db/client";
import { member, organization, usageNotices, user } from "../db/schema/index";
import type { Logger } from "../logger";

export interface UsageNoticeDeps {
  db: Db;
  mailer: Mailer;
  logger: Logger;
  apiUrl: string;
}

/**
 * Mails the organization's owners when its usage reaches 80 % or 100 % of the month's quota. The
 * usage_notices row is claimed first, so each notice goes once per month across replicas and
 * restarts. Runs beside ingest: the request that crossed the line does not wait for the mail.
 */
export function usageNoticeSender(deps: UsageNoticeDeps) {
  return (organizationId: string, month: string, percent: 80 | 100) => {
    void sendOnce(deps, organizationId, month, percent).catch((error: unknown) =>
      deps.logger.warn("usage notice failed", { organizationId, percent, err: error }),
    );
  };
}

async function sendOnce(deps: UsageNoticeDeps, organizationId: string, month: string, percent: 80 | 100) {
  const claimed = await deps.db
    .insert(usageNotices)
    .values({ organizationId, month, percent })
    .onConflictDoNothing()
    .returning({ percent: usageNotices.percent });
  if (claimed.length === 0) return;
  const [org] = await deps.db.select({ name: organization.name }).from(organization).where(eq(organization.id, organizationId));
  const members = await deps.db
    .select({ email: user.email, role: member.role })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(and(eq(member.organizationId, organizationId)));
  const owners = members.filter((row) => parseRoles(row.role).includes("owner"));
  const name = org?.name ?? "Your organization";
  const actionUrl = `${deps.apiUrl.replace(/\/$/, "")}/settings/organization/billing`;
  const text =
    percent === 100
      ? `${name} has used its whole monthly event quota for ${month}. New events are refused (HTTP 429) until the month rolls over, unless the organization upgrades to the plus plan.`
      : `${name} has used 80 % of its monthly event quota for ${month}. Once the quota is used up, new events are refused until the month rolls over.`;
  for (const owner of owners) {
    await deps.mailer.send({ kind: "usage", to: owner.email, subject: `${name} has used ${percent} % of its monthly events`, text, actionUrl });
  }
}
