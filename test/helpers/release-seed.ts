/**
 * Release rows written straight into the tables the Sentry tool API and the session ingest fill
 * (releases, commits, deploys, release health), so the read side is tested on exact numbers.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../src/server/db/client";
import {
  deploys,
  releaseCommitFiles,
  releaseCommits,
  releaseHealthHourly,
  releaseHealthUsers,
  releaseProjects,
  releases,
  repositories,
} from "../../src/server/db/schema/index";

export interface SeedRelease {
  organizationId: string;
  projectId: string;
  version: string;
  createdAt?: Date;
  dateReleased?: Date | null;
  status?: "open" | "archived";
}

/** The release (made for the project, or kept when ingest already made it), answering its id. */
export async function seedRelease(db: Db, release: SeedRelease): Promise<string> {
  await db
    .insert(releases)
    .values({
      organizationId: release.organizationId,
      version: release.version,
      createdAt: release.createdAt ?? new Date(),
      dateReleased: release.dateReleased ?? null,
      status: release.status ?? "open",
    })
    .onConflictDoUpdate({
      target: [releases.organizationId, releases.version],
      set: { createdAt: release.createdAt ?? new Date(), status: release.status ?? "open" },
    });
  const [row] = await db
    .select({ id: releases.id })
    .from(releases)
    .where(and(eq(releases.organizationId, release.organizationId), eq(releases.version, release.version)));
  await db.insert(releaseProjects).values({ releaseId: row.id, organizationId: release.organizationId, projectId: release.projectId }).onConflictDoNothing();
  return row.id;
}

export interface SeedCommit {
  commitId: string;
  message?: string;
  authorName?: string;
  authorEmail?: string;
  files?: string[];
}

/** Commits of a release in the order given (the first is the newest, position 0), in repository `repository`. */
export async function seedCommits(db: Db, organizationId: string, releaseId: string, commits: SeedCommit[], repository = "acme/shop") {
  await db.insert(repositories).values({ organizationId, name: repository }).onConflictDoNothing();
  const [repo] = await db
    .select({ id: repositories.id })
    .from(repositories)
    .where(and(eq(repositories.organizationId, organizationId), eq(repositories.name, repository)));
  for (const [position, commit] of commits.entries()) {
    const [row] = await db
      .insert(releaseCommits)
      .values({
        organizationId,
        releaseId,
        repositoryId: repo.id,
        commitId: commit.commitId,
        message: commit.message ?? null,
        authorName: commit.authorName ?? null,
        authorEmail: commit.authorEmail ?? null,
        position,
      })
      .returning({ id: releaseCommits.id });
    for (const filename of commit.files ?? [])
      await db.insert(releaseCommitFiles).values({ releaseCommitId: row.id, organizationId, filename, changeType: "M" });
  }
}

export async function seedDeploy(db: Db, organizationId: string, releaseId: string, environment: string, dateFinished: Date) {
  await db.insert(deploys).values({ organizationId, releaseId, environment, dateFinished });
}

export interface SeedHealthHour {
  organizationId: string;
  projectId: string;
  release: string;
  environment: string;
  hour: Date;
  sessions: number;
  crashed?: number;
  errored?: number;
  abnormal?: number;
}

/** One hour of sessions (the hour is truncated to the hour, as the ingest stores it). */
export async function seedHealthHour(db: Db, row: SeedHealthHour) {
  const hour = new Date(Math.floor(row.hour.getTime() / 3_600_000) * 3_600_000);
  await db.insert(releaseHealthHourly).values({ ...row, hour, crashed: row.crashed ?? 0, errored: row.errored ?? 0, abnormal: row.abnormal ?? 0 });
}

/** A user's day on a release (crashed when any of their sessions that day crashed). */
export async function seedHealthUser(
  db: Db,
  row: { organizationId: string; projectId: string; release: string; environment: string; day: Date; userKey: string; crashed?: boolean },
) {
  await db.insert(releaseHealthUsers).values({ ...row, day: row.day.toISOString().slice(0, 10), crashed: row.crashed ?? false });
}
