import { and, asc, count, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { billingCustomers, ingestOutcomes, member, projects, subscriptions } from "../db/schema/index";
import { ENTITLED_STATUSES } from "./organization-plan";

/** The organization's subscriptions, newest first; `active` keeps those that grant the plan. */
export function selectSubscriptions(db: Db, organizationId: string, active: boolean) {
  return db
    .select({
      id: subscriptions.id,
      plan: subscriptions.plan,
      status: subscriptions.status,
      seats: subscriptions.seats,
      currentPeriodStart: subscriptions.currentPeriodStart,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      paymentFailedAt: subscriptions.paymentFailedAt,
    })
    .from(subscriptions)
    .where(and(eq(subscriptions.organizationId, organizationId), active ? inArray(subscriptions.status, [...ENTITLED_STATUSES]) : undefined))
    .orderBy(sql`${subscriptions.createdAt} desc`, asc(subscriptions.id));
}

export async function memberCount(db: Db, organizationId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(member).where(eq(member.organizationId, organizationId));
  return Number(row?.n ?? 0);
}

export async function customerOf(db: Db, organizationId: string): Promise<string | null> {
  const [row] = await db.select({ customerId: billingCustomers.customerId }).from(billingCustomers).where(eq(billingCustomers.organizationId, organizationId));
  return row?.customerId ?? null;
}

/** Stores the organization's customer unless one is there already; answers the one that is stored. */
export async function storeCustomer(db: Db, organizationId: string, customerId: string): Promise<string> {
  await db.insert(billingCustomers).values({ organizationId, customerId }).onConflictDoNothing();
  return (await customerOf(db, organizationId)) ?? customerId;
}

/** This month's ingest outcomes per project, from the hourly counters ingest keeps anyway (no COUNT over events). */
export function monthOutcomes(db: Db, organizationId: string, since: Date) {
  return db
    .select({
      projectId: projects.id,
      projectName: projects.name,
      accepted: sql<number>`coalesce(sum(${ingestOutcomes.count}) filter (where ${ingestOutcomes.outcome} = 'accepted'), 0)`.mapWith(Number),
      rateLimited:
        sql<number>`coalesce(sum(${ingestOutcomes.count}) filter (where ${ingestOutcomes.outcome} = 'rate_limited' and ${ingestOutcomes.reason} <> 'usage_exceeded'), 0)`.mapWith(
          Number,
        ),
      overQuota:
        sql<number>`coalesce(sum(${ingestOutcomes.count}) filter (where ${ingestOutcomes.outcome} = 'rate_limited' and ${ingestOutcomes.reason} = 'usage_exceeded'), 0)`.mapWith(
          Number,
        ),
    })
    .from(projects)
    .leftJoin(ingestOutcomes, and(eq(ingestOutcomes.projectId, projects.id), gte(ingestOutcomes.hour, since)))
    .where(eq(projects.organizationId, organizationId))
    .groupBy(projects.id, projects.name)
    .orderBy(asc(projects.name));
}
