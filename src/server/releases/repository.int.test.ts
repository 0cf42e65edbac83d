import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../../../test/auth/org-kit";
import type { HttpSession } from "../../../test/helpers/http-session";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createOrganization, signUpVerified } from "../../../test/helpers/test-users";

describe("repositories in organization settings (tRPC repository.*, issue 34)", () => {
  let server: TestServer;
  let owner: HttpSession;
  let member: HttpSession;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer();
    owner = (await signUpVerified(server)).session;
    orgId = (await createOrganization(owner, "Repo Owners")).id;
    member = (await addMember(server, owner, orgId, "member")).session;
  });
  afterAll(() => server?.close());

  it("starts empty, registers a repository with provider and URL, and lists it to every member", async () => {
    expect((await owner.query("repository.list")).data).toEqual([]);
    const created = await owner.mutation("repository.create", { name: " acme/web-shop ", provider: "github", url: "https://github.com/acme/web-shop" });
    expect(created.error, created.error?.message).toBeUndefined();
    expect(created.data).toMatchObject({ name: "acme/web-shop", provider: "github", url: "https://github.com/acme/web-shop" });
    const bare = await owner.mutation("repository.create", { name: "acme/api", provider: "", url: "" });
    expect(bare.data).toMatchObject({ name: "acme/api", provider: null, url: null });
    const listed = await member.query("repository.list");
    expect(listed.data.map((repository: { name: string }) => repository.name)).toEqual(["acme/api", "acme/web-shop"]);
  });

  it("refuses a taken name (CONFLICT, in words the form shows), a name that is not owner/repo and a URL that is not http(s)", async () => {
    const taken = await owner.mutation("repository.create", { name: "acme/web-shop" });
    expect(taken.error).toMatchObject({ code: "CONFLICT", message: "A repository named acme/web-shop already exists" });
    const badName = await owner.mutation("repository.create", { name: "web-shop" });
    expect(badName.error?.code).toBe("BAD_REQUEST");
    expect(badName.error?.message).toContain("Name the repository as owner/repo");
    const badUrl = await owner.mutation("repository.create", { name: "acme/other", url: "javascript:alert(1)" });
    expect(badUrl.error?.message).toContain("The URL must start with http:// or https://");
    expect((await owner.query("repository.list")).data).toHaveLength(2);
  });

  it("lets only a role with release:manage add or remove; removing an unknown repository is NOT_FOUND", async () => {
    const refused = await member.mutation("repository.create", { name: "acme/member" });
    expect(refused.error).toMatchObject({ code: "FORBIDDEN", message: "Your role cannot manage releases" });
    const [first] = (await owner.query("repository.list")).data as { id: string; name: string }[];
    expect((await member.mutation("repository.delete", { repositoryId: first.id })).error?.code).toBe("FORBIDDEN");
    expect((await owner.mutation("repository.delete", { repositoryId: first.id })).data).toEqual({ deleted: true });
    expect((await owner.mutation("repository.delete", { repositoryId: first.id })).error?.code).toBe("NOT_FOUND");
    expect((await owner.query("repository.list")).data.map((repository: { name: string }) => repository.name)).toEqual(["acme/web-shop"]);
  });
});
