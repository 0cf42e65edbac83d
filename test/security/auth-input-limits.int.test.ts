/**
 * Battery K1 and K3 on the auth service (better-auth under /api/auth), request by request:
 * - lengths of what people type — user, organization and team names, slugs, logos, metadata —
 *   are limited on the server with the forms' messages (a 2 MiB member name once went out in
 *   every invitation mail);
 * - parameters better-auth hands to the database unchecked (list-members' sortBy, filterField,
 *   limit; NUL anywhere; unknown keys in organization updates) answer 400 `{ code, message }`
 *   like better-auth's own validation errors, never 500;
 * - work proportional to unchecked input: member pages are bounded (limit ≤ 100).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { createOrganization, signUpVerified, uniqueEmail } from "../helpers/test-users";

const AUTH = "/api/auth";

describe("input limits of the auth service (battery K1, K3)", () => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof signUpVerified>>;
  let org: { id: string; name: string; slug: string };

  beforeAll(async () => {
    server = await startTestServer();
    owner = await signUpVerified(server, { name: "Limit Owner" });
    org = await createOrganization(owner.session, "Limits");
  });
  afterAll(() => server.close());

  const post = (session: HttpSession, path: string, body: unknown) => session.request(`${AUTH}${path}`, { body });
  async function refused(response: Promise<{ status: number; body: any; text: string }>, message: string) {
    const { status, body, text } = await response;
    expect(status, text).toBe(400);
    expect(body.code).toBe("VALIDATION_ERROR");
    // Spec §8's generic message; which field broke which rule is in `details`.
    expect(body.message).toMatch(/^Invalid (body|query) parameters$/);
    expect(body.details).toContain(message);
  }

  describe("user names", () => {
    it("limits the sign-up name to 2–100 characters with the form's messages", async () => {
      const signUp = (name: string) => post(owner.session, "/sign-up/email", { name, email: uniqueEmail("limits"), password: "correct-horse-battery" });
      // Under the 1 MB body limit (a larger body is refused with 413 before it is read: body-limit.int.test.ts).
      await refused(signUp("x".repeat(512 * 1024)), "[body.name] Names are at most 100 characters");
      await refused(signUp("x"), "[body.name] Please enter your full name");
      await refused(signUp("Ada\u0000"), "[body.name] must not contain the NUL character (U+0000)");
      // better-auth stores the name as sent, so padding cannot slip past by being trimmed away.
      await refused(signUp(`Ada${" ".repeat(1_000_000)}`), "[body.name] Names are at most 100 characters");
    });

    it("limits the name and picture a user saves, and refuses NUL instead of failing in the database", async () => {
      await refused(post(owner.session, "/update-user", { name: "y".repeat(101) }), "[body.name] Names are at most 100 characters");
      await refused(post(owner.session, "/update-user", { name: "a\u0000b" }), "[body.name] must not contain the NUL character (U+0000)");
      await refused(
        post(owner.session, "/update-user", { image: `https://img.example/${"p".repeat(2100)}` }),
        "[body.image] Image URLs are at most 2048 characters",
      );
      const fine = await post(owner.session, "/update-user", { name: "z".repeat(100) });
      expect(fine.status, fine.text).toBe(200);
    });
  });

  describe("organizations and teams", () => {
    it("limits organization names, slugs, logos and metadata on create", async () => {
      const create = (body: Record<string, unknown>) =>
        post(owner.session, "/organization/create", { name: "Fine", slug: `fine-${Date.now().toString(36)}`, ...body });
      await refused(create({ name: "n".repeat(101) }), "[body.name] Names are at most 100 characters");
      await refused(create({ slug: "s".repeat(3000) }), "[body.slug] URL names are at most 48 characters");
      await refused(create({ slug: "Bad Slug" }), "[body.slug] Use lowercase letters, digits and single dashes");
      await refused(create({ metadata: { notes: "m".repeat(5000) } }), "[body.metadata] Metadata is at most 4 KiB of JSON");
      await refused(create({ logo: "l".repeat(3000) }), "[body.logo] Image URLs are at most 2048 characters");
    });

    it("refuses unknown keys, an empty update and over-long values in an organization update", async () => {
      const update = (data: unknown) => post(owner.session, "/organization/update", { organizationId: org.id, data });
      await refused(update({ bogus: 1 }), '[body.data] Unrecognized key: "bogus"');
      await refused(update({}), "[body.data] Nothing to update: send name, slug, logo or metadata");
      await refused(update({ name: "n".repeat(200_000) }), "[body.data.name] Names are at most 100 characters");
      await refused(update({ metadata: { blob: "m".repeat(90_000) } }), "[body.data.metadata] Metadata is at most 4 KiB of JSON");
      await refused(update({ slug: "Not A Slug" }), "[body.data.slug] Use lowercase letters, digits and single dashes");
      const renamed = await update({ name: "Limits Renamed", metadata: { plan: "free" } });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body.name).toBe("Limits Renamed");
    });

    it("limits team names to 1–100 characters on create and rename", async () => {
      await refused(
        post(owner.session, "/organization/create-team", { name: "t".repeat(200_000), organizationId: org.id }),
        "[body.name] Team names are at most 100 characters",
      );
      await refused(post(owner.session, "/organization/create-team", { name: "  ", organizationId: org.id }), "[body.name] Please enter a team name");
      const team = await post(owner.session, "/organization/create-team", { name: "Backend", organizationId: org.id });
      expect(team.status, team.text).toBe(200);
      await refused(
        post(owner.session, "/organization/update-team", { teamId: team.body.id, data: { name: "t".repeat(101) } }),
        "[body.data.name] Team names are at most 100 characters",
      );
    });
  });

  describe("member lists", () => {
    const listMembers = (query: string) => owner.session.request(`${AUTH}/organization/list-members?organizationId=${org.id}&${query}`);

    it("refuses unknown sort and filter fields, which reached the database as 500s", async () => {
      await refused(listMembers("sortBy=nope"), "[query.sortBy] sortBy must be one of createdAt, role, userId");
      await refused(listMembers("filterField=nope&filterValue=x"), "[query.filterField] filterField must be role or userId");
      await refused(listMembers("filterField=role&filterOperator=lt&filterValue=x"), "[query.filterOperator]");
    });

    it("refuses paging that is not a bounded integer", async () => {
      await refused(listMembers("limit=abc"), "[query.limit] limit must be an integer");
      await refused(listMembers("limit=0"), "[query.limit] limit must be from 1 to 100");
      await refused(listMembers("limit=100000000"), "[query.limit] limit must be from 1 to 100");
      await refused(listMembers("offset=-1"), "[query.offset] offset must be from 0 to 100000");
      await refused(owner.session.request(`${AUTH}/organization/get-full-organization?organizationId=${org.id}&membersLimit=abc`), "[query.membersLimit]");
    });

    it("refuses NUL in any parameter, and still lists with valid ones", async () => {
      await refused(
        owner.session.request(`${AUTH}/organization/list-members?organizationId=a%00b`),
        "[query.organizationId] must not contain the NUL character",
      );
      await refused(post(owner.session, "/organization/set-active", { organizationId: "\u0000" }), "[body.organizationId] must not contain the NUL character");
      const deep = `{"name":"Deep","image":null,"x":${'{"a":'.repeat(100_000)}"\\u0000"${"}".repeat(100_000)}}`;
      await refused(owner.session.request(`${AUTH}/update-user`, { body: deep }), "must not contain the NUL character");
      const listed = await listMembers("limit=10&offset=0&sortBy=createdAt&sortDirection=desc&filterField=role&filterValue=owner");
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.members.map((member: { userId: string }) => member.userId)).toEqual([owner.userId]);
    });
  });
});
