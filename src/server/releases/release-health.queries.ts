import { and, eq, gte, inArray, sql, type SQL } from "drizzle-orm";
import type { ReleaseHealth, ReleaseHealthDay } from "../../shared/release.views";
import type { Db } from "../db/client";
import { releaseHealthHourly, releaseHealthUsers } from "../db/schema/index";

// Release health read from the hourly and daily rollups the session ingest keeps — never from
// sessions one by one. Every query takes the organization and project ids.

/** Days of the list's sparkline, today included. */
export const SPARKLINE_DAYS = 14;
/** Days of the detail's chart, today included. */
export const HEALTH_CHART_DAYS = 30;

/** A percentage 0–100 with two decimals; null without a denominator (no sessions is not "healthy"). */
export function percentage(part: number, whole: number): number | null {
  if (whole <= 0) return null;
  const value = Math.min(100, Math.max(0, (100 * part) / whole));
  return Math.round(value * 100) / 100;
}

/** 100 × (1 − bad / total), null when total is 0. */
export function crashFreeRate(bad: number, total: number): number | null {
  if (total <= 0) return null;
  return percentage(Math.max(0, total - bad), total);
}

const hourlyScope = (organizationId: string, projectId: string, environment: string | undefined): SQL =>
  and(
    eq(releaseHealthHourly.organizationId, organizationId),
    eq(releaseHealthHourly.projectId, projectId),
    environment === undefined ? undefined : eq(releaseHealthHourly.environment, environment),
  ) as SQL;

/** The start of the UTC day `daysBack` days before today. */
const utcDayStart = (now: Date, daysBack: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysBack));
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Sessions, crash-free sessions and users, and adoption of each version (the whole window: every
 * row kept). Adoption is the version's share of the project's sessions (of the environment, when
 * one is chosen) in the 24 hours before `now`: 0 when others had sessions and it had none, null
 * when nobody had any.
 */
export async function selectReleaseHealth(
  db: Db,
  organizationId: string,
  projectId: string,
  versions: readonly string[],
  environment: string | undefined,
  now: Date,
): Promise<Map<string, ReleaseHealth>> {
  const health = new Map<string, ReleaseHealth>();
  if (versions.length === 0) return health;
  const scope = hourlyScope(organizationId, projectId, environment);
  const since = new Date(now.getTime() - 24 * 3600_000);
  const [sessions, users, recent] = await Promise.all([
    db
      .select({
        release: releaseHealthHourly.release,
        sessions: sql<string>`coalesce(sum(${releaseHealthHourly.sessions}), 0)`,
        crashed: sql<string>`coalesce(sum(${releaseHealthHourly.crashed}), 0)`,
      })
      .from(releaseHealthHourly)
      .where(and(scope, inArray(releaseHealthHourly.release, [...versions])))
      .groupBy(releaseHealthHourly.release),
    db
      .select({
        release: releaseHealthUsers.release,
        // A user counts once over every day and environment, and as crashed if any of their days crashed.
        users: sql<string>`count(distinct ${releaseHealthUsers.userKey})`,
        crashedUsers: sql<string>`count(distinct ${releaseHealthUsers.userKey}) filter (where ${releaseHealthUsers.crashed})`,
      })
      .from(releaseHealthUsers)
      .where(
        and(
          eq(releaseHealthUsers.organizationId, organizationId),
          eq(releaseHealthUsers.projectId, projectId),
          environment === undefined ? undefined : eq(releaseHealthUsers.environment, environment),
          inArray(releaseHealthUsers.release, [...versions]),
        ),
      )
      .groupBy(releaseHealthUsers.release),
    // Every release's sessions of the last 24 hours: the denominator of adoption.
    db
      .select({ release: releaseHealthHourly.release, sessions: sql<string>`coalesce(sum(${releaseHealthHourly.sessions}), 0)` })
      .from(releaseHealthHourly)
      .where(and(scope, gte(releaseHealthHourly.hour, since)))
      .groupBy(releaseHealthHourly.release),
  ]);
  const sessionsOf = new Map(sessions.map((row) => [row.release, { sessions: Number(row.sessions), crashed: Number(row.crashed) }]));
  const usersOf = new Map(users.map((row) => [row.release, { users: Number(row.users), crashed: Number(row.crashedUsers) }]));
  const recentOf = new Map(recent.map((row) => [row.release, Number(row.sessions)]));
  const recentTotal = [...recentOf.values()].reduce((sum, count) => sum + count, 0);
  for (const version of versions) {
    const counted = sessionsOf.get(version) ?? { sessions: 0, crashed: 0 };
    const people = usersOf.get(version) ?? { users: 0, crashed: 0 };
    health.set(version, {
      sessions: counted.sessions,
      crashFreeSessions: crashFreeRate(counted.crashed, counted.sessions),
      // Without sessions there is nothing to be crash-free of, whatever the user rows say.
      crashFreeUsers: counted.sessions === 0 ? null : crashFreeRate(people.crashed, people.users),
      adoption: percentage(recentOf.get(version) ?? 0, recentTotal),
    });
  }
  return health;
}

/** Sessions per UTC day of each version over the last `days` days (today included), oldest first. */
export async function selectDailySessions(
  db: Db,
  organizationId: string,
  projectId: string,
  versions: readonly string[],
  environment: string | undefined,
  now: Date,
  days: number,
): Promise<Map<string, ReleaseHealthDay[]>> {
  const byVersion = new Map<string, ReleaseHealthDay[]>();
  if (versions.length === 0) return byVersion;
  const first = utcDayStart(now, days - 1);
  const day = sql<string>`to_char(date_trunc('day', ${releaseHealthHourly.hour} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      release: releaseHealthHourly.release,
      day,
      sessions: sql<string>`sum(${releaseHealthHourly.sessions})`,
      crashed: sql<string>`sum(${releaseHealthHourly.crashed})`,
    })
    .from(releaseHealthHourly)
    .where(and(hourlyScope(organizationId, projectId, environment), inArray(releaseHealthHourly.release, [...versions]), gte(releaseHealthHourly.hour, first)))
    .groupBy(releaseHealthHourly.release, day);
  const counted = new Map(rows.map((row) => [`${row.release} ${row.day}`, { sessions: Number(row.sessions), crashed: Number(row.crashed) }]));
  for (const version of versions) {
    byVersion.set(
      version,
      Array.from({ length: days }, (_, index) => {
        const name = isoDay(utcDayStart(now, days - 1 - index));
        const { sessions, crashed } = counted.get(`${version} ${name}`) ?? { sessions: 0, crashed: 0 };
        return { day: name, sessions, crashed, crashFreeSessions: crashFreeRate(crashed, sessions) };
      }),
    );
  }
  return byVersion;
}

/** The environments (as the SDKs sent them) of the project's release health, by name. */
export async function selectHealthEnvironments(db: Db, organizationId: string, projectId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ environment: releaseHealthHourly.environment })
    .from(releaseHealthHourly)
    .where(hourlyScope(organizationId, projectId, undefined))
    .orderBy(releaseHealthHourly.environment);
  // "" is a session without an environment: not a name one can filter by (an empty filter means all).
  return rows.map((row) => row.environment).filter((environment) => environment !== "");
}
