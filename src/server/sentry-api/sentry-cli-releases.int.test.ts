import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploys, releaseCommitFiles, releaseCommits, releases, repositories } from "../db/schema/index";
import { GitRepo } from "../../../test/helpers/git-repo";
import { sentryCli, SENTRY_CLI, type SentryCliTarget } from "../../../test/helpers/sentry-cli";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createOrganization, signUpVerified } from "../../../test/helpers/test-users";

describe("releases, commits and deploys from the real sentry-cli (2.x and 3.x) through the Sentry tool API", () => {
  let server: TestServer;
  let work: string;

  beforeAll(async () => {
    server = await startTestServer();
    work = mkdtempSync(path.join(tmpdir(), "faultline-cli-releases-"));
  });
  afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** An organization of its own per CLI version: previous-with-commits looks across the organization. */
  async function tenant(name: string) {
    const { session } = await signUpVerified(server);
    const org = await createOrganization(session, name);
    const project = (await session.mutation("project.create", { name: "Web Shop", platform: "NODE_JS" })).data;
    const token = (await session.mutation("apiToken.create", { name: "ci", scopes: ["project:releases"] })).data.secret as string;
    return { session, org, project, token };
  }

  const db = () => server.services.db;
  const releaseRow = async (organizationId: string, version: string) =>
    (
      await db()
        .select()
        .from(releases)
        .where(and(eq(releases.organizationId, organizationId), eq(releases.version, version)))
    )[0];
  const commitsOf = async (releaseId: string) =>
    db()
      .select({
        id: releaseCommits.id,
        commitId: releaseCommits.commitId,
        message: releaseCommits.message,
        authorName: releaseCommits.authorName,
        authorEmail: releaseCommits.authorEmail,
        repositoryId: releaseCommits.repositoryId,
      })
      .from(releaseCommits)
      .where(eq(releaseCommits.releaseId, releaseId))
      .orderBy(asc(releaseCommits.position));
  const filesOf = async (releaseCommitId: string) =>
    (await db().select().from(releaseCommitFiles).where(eq(releaseCommitFiles.releaseCommitId, releaseCommitId)).orderBy(asc(releaseCommitFiles.filename))).map(
      (file) => `${file.changeType} ${file.filename}`,
    );

  for (const version of Object.keys(SENTRY_CLI) as (keyof typeof SENTRY_CLI)[]) {
    it(`${version}: new, set-commits --local (twice: only new commits), deploys, finalize, list, info, archive, restore, delete`, async () => {
      const t = await tenant(`Releases ${version}`);
      const repo = new GitRepo(path.join(work, `repo-${version}`));
      const target: SentryCliTarget = { url: server.url, token: t.token, org: t.org.slug, project: t.project.slug, work: repo.dir };
      const cli = (...args: string[]) => sentryCli(target, args, version);
      const api = async (pathname: string, body?: unknown) => {
        const response = await fetch(`${server.url}/api/0${pathname}`, {
          method: body === undefined ? "GET" : "POST",
          headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: await response.json() };
      };

      const first = repo.commit("Add the price formatter", { "src/price.js": "export const price = 1;\n", "README.md": "# shop\n" });
      const second = repo.commit(
        "Format prices in cents\n\nLonger body.",
        { "src/price.js": "export const price = 100;\n", "src/cart.js": "export {};\n" },
        "Grace Hopper <grace@example.com>",
      );
      const v1 = `shop@1.0.0-${version}`;
      const v2 = `shop@1.1.0-${version}`;

      expect(await cli("releases", "new", v1)).toContain(v1);
      expect(await cli("releases", "set-commits", v1, "--local")).toContain(`Success! Set commits for release ${v1}`);
      const row1 = await releaseRow(t.org.id, v1);
      const commits1 = await commitsOf(row1.id);
      expect(commits1.map((commit) => commit.commitId)).toEqual([second, first]);
      expect(commits1[0]).toMatchObject({ message: "Format prices in cents\n\nLonger body.", authorName: "Grace Hopper", authorEmail: "grace@example.com" });
      expect(commits1[1]).toMatchObject({ message: "Add the price formatter", authorName: "Ada Lovelace", authorEmail: "ada@example.com" });
      expect(await filesOf(commits1[0].id)).toEqual(["A src/cart.js", "M src/price.js"]);
      expect(await filesOf(commits1[1].id)).toEqual(["A README.md", "A src/price.js"]);
      const [repository] = await db().select().from(repositories).where(eq(repositories.organizationId, t.org.id));
      expect(commits1[0].repositoryId).toBe(repository.id);
      // No repository was registered: sentry-cli names the commits' repository by the git remote, registered as it comes.
      expect(repository.name).toBe("origin");

      // A new commit and a new release: previous-with-commits names v1's newest commit, so only the new one is sent.
      const third = repo.commit("Remove the cart", { "src/cart.js": null });
      expect(await cli("releases", "new", v2)).toContain(v2);
      const registered = await api(`/organizations/${t.org.slug}/repos/`, {
        name: "acme/web-shop",
        provider: "github",
        url: "https://github.com/acme/web-shop",
      });
      expect(registered.status).toBe(201);
      await cli("releases", "set-commits", v2, "--local");
      const row2 = await releaseRow(t.org.id, v2);
      const commits2 = await commitsOf(row2.id);
      expect(commits2.map((commit) => commit.commitId)).toEqual([third]);
      expect(await filesOf(commits2[0].id)).toEqual(["D src/cart.js"]);
      expect((await commitsOf(row1.id)).length).toBe(2);

      // --commit names a registered repository and a range: without a provider integration the head commit is stored.
      const v3 = `shop@1.2.0-${version}`;
      await cli("releases", "new", v3);
      await cli("releases", "set-commits", v3, "--commit", `acme/web-shop@${first}..${third}`);
      const row3 = await releaseRow(t.org.id, v3);
      expect((await commitsOf(row3.id)).map((commit) => [commit.commitId, commit.repositoryId])).toEqual([[third, registered.body.id]]);
      // --auto finds the registered repository by the git remote's URL and sends the head commit as a ref.
      const v4 = `shop@1.3.0-${version}`;
      await cli("releases", "new", v4);
      await cli("releases", "set-commits", v4, "--auto");
      expect((await commitsOf((await releaseRow(t.org.id, v4)).id)).map((commit) => [commit.commitId, commit.repositoryId])).toEqual([
        [third, registered.body.id],
      ]);
      const deploy = await cli("deploys", "new", "--release", v2, "-e", "production", "-n", "Friday deploy", "-u", "https://shop.example.com");
      console.log(deploy);
      const [deployRow] = await db().select().from(deploys).where(eq(deploys.releaseId, row2.id));
      expect(deployRow).toMatchObject({ environment: "production", name: "Friday deploy", url: "https://shop.example.com" });
      const deployList = await cli("deploys", "list", "--release", v2);
      console.log(deployList);
      expect(deployList).toContain("production");

      // The product's REST answers what the CLI wrote: version, commits (ids, messages, authors, files), deploys.
      const rest = `/api/v1/organizations/${t.org.id}/projects/${t.project.id}/releases`;
      const restList = async () => {
        const list = await t.session.request(rest);
        expect(list.status, list.text).toBe(200);
        return Object.fromEntries(list.body.items.map((item: { version: string }) => [item.version, item])) as Record<string, any>;
      };
      const restDetail = async (releaseVersion: string) => {
        const detail = await t.session.request(`${rest}/${encodeURIComponent(releaseVersion)}`);
        expect(detail.status, detail.text).toBe(200);
        return detail.body;
      };
      expect(Object.keys(await restList()).sort()).toEqual([v1, v2, v3, v4]);
      expect((await restList())[v2]).toMatchObject({ version: v2, status: "open", dateReleased: null, commitCount: 1, deploys: 1 });
      const detail1 = await restDetail(v1);
      expect(detail1).toMatchObject({ version: v1, commitCount: 2, deploys: 0, deployList: [] });
      expect(detail1.commits).toEqual([
        expect.objectContaining({
          commitId: second,
          message: "Format prices in cents\n\nLonger body.",
          authorName: "Grace Hopper",
          authorEmail: "grace@example.com",
          repository: "origin",
          files: [
            { filename: "src/cart.js", changeType: "A" },
            { filename: "src/price.js", changeType: "M" },
          ],
        }),
        expect.objectContaining({ commitId: first, message: "Add the price formatter", authorName: "Ada Lovelace", authorEmail: "ada@example.com" }),
      ]);
      const detail2 = await restDetail(v2);
      expect(detail2.commits).toEqual([
        expect.objectContaining({
          commitId: third,
          message: "Remove the cart",
          authorName: "Ada Lovelace",
          files: [{ filename: "src/cart.js", changeType: "D" }],
        }),
      ]);
      expect(detail2.deployList).toEqual([expect.objectContaining({ environment: "production", name: "Friday deploy", url: "https://shop.example.com" })]);

      const finalize = await cli("releases", "finalize", v2);
      console.log(finalize);
      expect((await releaseRow(t.org.id, v2)).dateReleased).toBeInstanceOf(Date);
      const finalized = (await restList())[v2];
      expect(finalized.dateReleased).not.toBeNull();
      expect(new Date(finalized.dateReleased).getTime()).toBe((await releaseRow(t.org.id, v2)).dateReleased?.getTime());
      expect((await restDetail(v2)).dateReleased).toBe(finalized.dateReleased);
      expect((await restList())[v1].dateReleased).toBeNull();

      const list = await cli("releases", "list");
      console.log(list);
      expect(list).toContain(v1);
      expect(list).toContain(v2);
      const info = await cli("releases", "info", v2);
      console.log(info);
      expect(info).toContain(v2);

      const view = await api(`/organizations/${t.org.slug}/releases/${encodeURIComponent(v2)}/`);
      expect(view.body).toMatchObject({
        version: v2,
        shortVersion: `1.1.0-${version}`,
        status: "open",
        commitCount: 1,
        lastCommit: { id: third, author: { name: "Ada Lovelace", email: "ada@example.com" }, repository: { name: repository.name } },
        deployCount: 1,
        lastDeploy: { environment: "production", name: "Friday deploy" },
        authors: [{ name: "Ada Lovelace", email: "ada@example.com" }],
        projects: [{ slug: t.project.slug }],
      });
      expect(view.body.dateReleased).not.toBeNull();
      const listedCommits = await api(`/projects/${t.org.slug}/${t.project.slug}/releases/${encodeURIComponent(v1)}/commits/`);
      expect(listedCommits.body.map((commit: { id: string }) => commit.id)).toEqual([second, first]);
      expect(listedCommits.body[0]).toMatchObject({
        message: "Format prices in cents\n\nLonger body.",
        author: { name: "Grace Hopper", email: "grace@example.com" },
      });

      const archive = await cli("releases", "archive", v1);
      console.log(archive);
      expect((await releaseRow(t.org.id, v1)).status).toBe("archived");
      expect(await cli("releases", "list")).not.toContain(v1);
      const restore = await cli("releases", "restore", v1);
      console.log(restore);
      expect((await releaseRow(t.org.id, v1)).status).toBe("open");
      expect(await cli("releases", "list")).toContain(v1);

      const deleted = await cli("releases", "delete", v1);
      console.log(deleted);
      expect(await releaseRow(t.org.id, v1)).toBeUndefined();
      expect((await t.session.request(`${rest}/${encodeURIComponent(v1)}`)).status).toBe(404);
      expect(Object.keys(await restList())).not.toContain(v1);
      expect(await commitsOf(row1.id)).toEqual([]);
      await expect(cli("releases", "info", v1)).rejects.toThrow();
    });
  }
});
