import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueActivities, issues, releases } from "../db/schema/index";
import { commitBatch } from "../ingest/store/batch-commit";
import { addReleaseProjects, upsertRelease } from "../releases/release.queries";
import { afterNewEvent, releaseKeepsResolved, type ReleaseResolution } from "./issue-state";
import { updateIssueStatuses } from "./issue-triage.queries";
import { selectIssueActivity } from "./issue-detail.queries";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import { preparedMessageEvent } from "../../../test/helpers/message-event";

/**
 * Issue 34: an issue resolved in a release stays resolved for events of releases that predate the
 * fix and reopens as a regression, naming the release, on the first event of a newer one — decided
 * by ingest's one batch statement, releases ordered by creation within the organization.
 */
describe("resolved in a release, at ingest", () => {
  let database: TestDatabase;
  let project: Awaited<ReturnType<typeof seedProject>>;
  let other: Awaited<ReturnType<typeof seedProject>>;
  const t0 = Date.parse("2026-11-01T00:00:00Z");
  beforeAll(async () => {
    database = await createTestDatabase();
    project = await seedProject(database.db, "resolve-in-release");
    other = await seedProject(database.db, "resolve-in-release-other");
    // Created in this order (a day apart): 1.0.0 < 1.1.0 < 1.2.0 < 1.3.0.
    for (const [i, version] of ["1.0.0", "1.1.0", "1.2.0", "1.3.0"].entries()) await seedRelease(project, version, new Date(t0 + i * 86_400_000));
    // Another organization's "9.9.9" is older than everything: it must not count for this one.
    await seedRelease(other, "9.9.9", new Date(t0 - 86_400_000));
  });
  afterAll(() => database.destroy());

  async function seedRelease(owner: { organizationId: string; projectId: string }, version: string, createdAt: Date) {
    const { row } = await upsertRelease(database.db, owner.organizationId, version, {});
    await database.db.update(releases).set({ createdAt }).where(eq(releases.id, row.id));
    await addReleaseProjects(database.db, owner.organizationId, row.id, [owner.projectId]);
  }

  /** One batch statement holding one event per release given (null: an event without a release). */
  const ingest = async (issueName: string, ...eventReleases: (string | null)[]) => {
    const batch = eventReleases.map((release) => preparedMessageEvent(project, issueName, release === null ? {} : { release }));
    await commitBatch(database, batch, []);
    return batch[0].issueId;
  };
  const actor = () => ({ organizationId: project.organizationId, projectId: project.projectId, userId: "release-test" });
  const resolveIn = (issueId: string, resolution: ReleaseResolution) => updateIssueStatuses(database.db, actor(), [issueId], "RESOLVED", resolution);
  const stateOf = async (issueId: string) => {
    const [row] = await database.db
      .select({ status: issues.status, isRegression: issues.isRegression, release: issues.resolvedInRelease, next: issues.resolvedInNextRelease })
      .from(issues)
      .where(eq(issues.id, issueId));
    return row;
  };
  const regressionsOf = (issueId: string) =>
    database.db
      .select({ kind: issueActivities.kind, from: issueActivities.fromValue, to: issueActivities.toValue })
      .from(issueActivities)
      .where(and(eq(issueActivities.issueId, issueId), eq(issueActivities.kind, "regression_in_release")));
  const next = (version: string): ReleaseResolution => ({ resolvedInRelease: version, resolvedInNextRelease: true });
  const named = (version: string): ReleaseResolution => ({ resolvedInRelease: version, resolvedInNextRelease: false });

  it("ingest's upsert follows releaseKeepsResolved for every resolution and event release", async () => {
    const rank = new Map([
      ["1.0.0", 0],
      ["1.1.0", 1],
      ["1.2.0", 2],
      ["1.3.0", 3],
    ]);
    const resolutions: ReleaseResolution[] = [{ resolvedInRelease: null, resolvedInNextRelease: false }, next("1.1.0"), named("1.1.0")];
    const eventReleases = ["1.0.0", "1.1.0", "1.2.0", "9.9.9", null];
    let n = 0;
    for (const resolution of resolutions) {
      for (const eventRelease of eventReleases) {
        const label = `${JSON.stringify(resolution)} ← ${eventRelease}`;
        const name = `rule matrix ${String.fromCharCode(97 + n++).repeat(3)}`;
        const issueId = await ingest(name, "1.0.0");
        await resolveIn(issueId, resolution);
        await ingest(name, eventRelease);
        const kept = releaseKeepsResolved(
          resolution,
          eventRelease === null ? null : (rank.get(eventRelease) ?? null),
          rank.get(resolution.resolvedInRelease ?? "") ?? null,
        );
        const { regressed, status, isRegression } = afterNewEvent({ status: "RESOLVED", resolvedAt: new Date(), isRegression: false }, kept);
        expect(await stateOf(issueId), label).toMatchObject({ status, isRegression });
        expect((await regressionsOf(issueId)).length, label).toBe(regressed && resolution.resolvedInRelease !== null ? 1 : 0);
      }
    }
  });

  it("ranks releases as the pure rule says", () => {
    expect(releaseKeepsResolved(next("b"), 1, 1)).toBe(true);
    expect(releaseKeepsResolved(next("b"), 2, 1)).toBe(false);
    expect(releaseKeepsResolved(named("b"), 1, 1)).toBe(false);
    expect(releaseKeepsResolved(named("b"), 0, 1)).toBe(true);
    expect(releaseKeepsResolved(named("b"), null, 1)).toBe(false);
    expect(releaseKeepsResolved({ resolvedInRelease: null, resolvedInNextRelease: false }, 0, 1)).toBe(false);
  });

  it("resolved in the next release: that release and older keep it resolved, a newer one reopens it naming the release", async () => {
    const issueId = await ingest("next release case", "1.1.0");
    expect(await resolveIn(issueId, next("1.1.0"))).toEqual([issueId]);
    const [resolution] = await selectIssueActivity(database.db, project.organizationId, project.projectId, issueId);
    expect([resolution.kind, resolution.from, resolution.to]).toEqual(["resolved_in_next_release", "OPEN", "1.1.0"]);

    await ingest("next release case", "1.1.0", "1.0.0", "1.1.0");
    expect(await stateOf(issueId)).toEqual({ status: "RESOLVED", isRegression: false, release: "1.1.0", next: true });
    expect(await regressionsOf(issueId)).toEqual([]);

    await ingest("next release case", "1.0.0", "1.2.0");
    expect(await stateOf(issueId)).toEqual({ status: "OPEN", isRegression: true, release: null, next: false });
    expect(await regressionsOf(issueId)).toEqual([{ kind: "regression_in_release", from: "1.1.0", to: "1.2.0" }]);
    // Reopened, further events of any release are counted without another regression.
    await ingest("next release case", "1.3.0");
    expect(await regressionsOf(issueId)).toHaveLength(1);
  });

  it("resolved in a named release: older releases keep it resolved, that release reopens it", async () => {
    const issueId = await ingest("named release case", "1.0.0");
    await resolveIn(issueId, named("1.2.0"));
    await ingest("named release case", "1.0.0", "1.1.0");
    expect(await stateOf(issueId)).toEqual({ status: "RESOLVED", isRegression: false, release: "1.2.0", next: false });
    await ingest("named release case", "1.2.0");
    expect(await stateOf(issueId)).toMatchObject({ status: "OPEN", isRegression: true, release: null });
    expect(await regressionsOf(issueId)).toEqual([{ kind: "regression_in_release", from: "1.2.0", to: "1.2.0" }]);
  });

  it("an event without a release, or with one this organization does not know, reopens it", async () => {
    const withoutRelease = await ingest("no release case", "1.0.0");
    await resolveIn(withoutRelease, next("1.3.0"));
    await ingest("no release case", null);
    expect(await stateOf(withoutRelease)).toMatchObject({ status: "OPEN", isRegression: true });
    expect(await regressionsOf(withoutRelease)).toEqual([{ kind: "regression_in_release", from: "1.3.0", to: null }]);

    // "9.9.9" is a release of another organization only: unknown here, so treated as newer.
    const unknownRelease = await ingest("unknown release case", "1.0.0");
    await resolveIn(unknownRelease, next("1.3.0"));
    await ingest("unknown release case", "9.9.9");
    expect(await stateOf(unknownRelease)).toMatchObject({ status: "OPEN", isRegression: true });
    expect(await regressionsOf(unknownRelease)).toEqual([{ kind: "regression_in_release", from: "1.3.0", to: "9.9.9" }]);
  });

  it("a resolution release deleted since reopens on any event; a later status change clears the release", async () => {
    const issueId = await ingest("cleared case", "1.0.0");
    await resolveIn(issueId, named("1.3.0"));
    // Resolving plainly is a change of resolution, recorded as a status change; the release goes.
    expect(await updateIssueStatuses(database.db, actor(), [issueId], "RESOLVED")).toEqual([issueId]);
    expect(await stateOf(issueId)).toEqual({ status: "RESOLVED", isRegression: false, release: null, next: false });
    await ingest("cleared case", "1.0.0");
    expect(await stateOf(issueId)).toMatchObject({ status: "OPEN", isRegression: true });
    expect(await regressionsOf(issueId), "a plain resolution regresses as before").toEqual([]);

    await resolveIn(issueId, named("1.3.0"));
    await updateIssueStatuses(database.db, actor(), [issueId], "IGNORED");
    expect(await stateOf(issueId)).toMatchObject({ status: "IGNORED", release: null, next: false });

    await seedRelease(project, "gone", new Date(t0 + 10 * 86_400_000));
    await resolveIn(issueId, named("gone"));
    await database.db.delete(releases).where(and(eq(releases.organizationId, project.organizationId), eq(releases.version, "gone")));
    await ingest("cleared case", "1.0.0");
    expect(await stateOf(issueId)).toMatchObject({ status: "OPEN", isRegression: true });
  });

  it("resolving again in the same release changes nothing; in another one, records the new resolution", async () => {
    const issueId = await ingest("re-resolve case", "1.0.0");
    expect(await resolveIn(issueId, named("1.2.0"))).toEqual([issueId]);
    expect(await resolveIn(issueId, named("1.2.0"))).toEqual([]);
    expect(await resolveIn(issueId, next("1.2.0"))).toEqual([issueId]);
    const activity = await selectIssueActivity(database.db, project.organizationId, project.projectId, issueId);
    expect(activity.map((row) => [row.kind, row.from, row.to])).toEqual([
      ["resolved_in_next_release", "RESOLVED", "1.2.0"],
      ["resolved_in_release", "OPEN", "1.2.0"],
    ]);
  });
});
