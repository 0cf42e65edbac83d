/**
 * Tenancy of the AWS WAF integration with both organizations connected (the whole-surface matrix
 * runs these procedures and routes unconnected): A's owner, admin-less member and an outsider
 * cannot reach B's connection, IP sets, sampled requests or audit entries by any id, and a
 * member's block attempt is FORBIDDEN.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AwsStandIn } from "../../../../test/stand-ins/aws/aws-stand-in";
import { HttpSession } from "../../../../test/helpers/http-session";
import { issueByType, sendEvent, triageTenant } from "../../../../test/helpers/triage-seed";
import { lastMail, signUpVerified } from "../../../../test/helpers/test-users";
import { callProcedure, massAssigned } from "../../../../test/helpers/typed-trpc";
import { keysOf, seedWafAccount, startWafTestServer, type TestServer } from "../../../../test/helpers/waf-test-server";

describe("AWS WAF tenancy with both organizations connected", () => {
  let aws: AwsStandIn;
  let server: TestServer;
  let ownerA: HttpSession;
  let memberA: HttpSession;
  let ownerB: HttpSession;
  let aOrg: string;
  let bOrg: string;
  let bSeed: ReturnType<typeof seedWafAccount>;
  let bIds: { projectId: string; issueId: string; exceptionId: string };
  const transcripts: string[] = [];
  const MARKER = "tenant-b-waf-set";

  beforeAll(async () => {
    aws = await new AwsStandIn().start();
    ({ server } = await startWafTestServer(aws));
    const aSeed = seedWafAccount(aws);
    bSeed = seedWafAccount(aws, "us-west-2");
    aws.addIpSet(bSeed.home, { name: MARKER, addresses: ["203.0.113.99/32"] });
    const a = await triageTenant(server, "Waf A");
    const b = await triageTenant(server, "Waf B");
    [ownerA, ownerB, aOrg, bOrg] = [a.session, b.session, a.org.id, b.org.id];
    for (const [session, org, seed, region] of [
      [ownerA, aOrg, aSeed, "eu-west-1"],
      [ownerB, bOrg, bSeed, "us-west-2"],
    ] as const) {
      const base = `/api/v1/organizations/${org}/integrations/aws/waf`;
      expect((await session.request(base, { method: "PUT", body: keysOf(seed.account, region) })).status).toBe(200);
      expect((await session.request(`${base}/block-list`, { method: "PUT", body: { ipSetId: seed.blocked.id } })).status).toBe(200);
    }
    await sendEvent(server, b.project, { type: "BError", value: "b", fn: "b", user: { ip_address: "198.51.100.77" } });
    const issue = await issueByType(ownerB, b.project.id, "BError");
    const exceptions = await callProcedure(ownerB, "exception.list", { projectId: b.project.id, issueId: issue.id });
    bIds = { projectId: b.project.id, issueId: issue.id, exceptionId: exceptions.data!.items[0]!.id };
    expect((await callProcedure(ownerB, "waf.block", { ip: "198.51.100.77", ...bIds })).data?.outcome).toBe("changed");

    const email = `member-a-${Date.now()}@example.com`;
    await ownerA.request("/api/auth/organization/invite-member", { body: { email, role: "member" } });
    const joined = await signUpVerified(server, { email });
    await joined.session.request("/api/auth/organization/accept-invitation", {
      body: { invitationId: new URL(lastMail(server, email, "invitation").actionUrl).searchParams.get("invitationId") },
    });
    await joined.session.request("/api/auth/organization/set-active", { body: { organizationId: aOrg } });
    memberA = joined.session;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await aws?.close();
  });

  it("answers 404 on every B route for A's owner and member", async () => {
    const b = `/api/v1/organizations/${bOrg}/integrations`;
    const paths: [string, string, unknown?][] = [
      ["GET", b],
      ["GET", `${b}/aws/waf`],
      ["PUT", `${b}/aws/waf`, keysOf(bSeed.account, "us-west-2")],
      ["DELETE", `${b}/aws/waf`],
      ["GET", `${b}/aws/waf/web-acls`],
      ["GET", `${b}/aws/waf/ip-sets`],
      ["GET", `${b}/aws/waf/ip-sets/${bSeed.blocked.id}/sampled-requests`],
      ["PUT", `${b}/aws/waf/block-list`, { ipSetId: bSeed.unused.id }],
      ["POST", `${b}/aws/waf/blocks`, { ip: "203.0.113.1" }],
      ["DELETE", `${b}/aws/waf/blocks/198.51.100.77`],
      ["GET", `${b}/aws/waf/audit`],
    ];
    for (const session of [ownerA, memberA]) {
      for (const [method, url, body] of paths) {
        const response = await session.request(url, { method, body });
        transcripts.push(response.text);
        expect(response.status, `${method} ${url}`).toBe(404);
      }
    }
    expect(aws.ipSet(bSeed.blocked.id)?.addresses).toContain("198.51.100.77/32");
  });

  it("acts only in A's own AWS account and rows, whatever B ids the input names", async () => {
    const ipSets = await callProcedure(ownerA, "waf.ipSets", undefined);
    transcripts.push(JSON.stringify(ipSets));
    expect(ipSets.data?.map((ipSet) => ipSet.id)).not.toContain(bSeed.blocked.id);
    const audit = await callProcedure(ownerA, "waf.audit", { limit: 200 });
    expect(audit.data).toEqual([]);
    for (const [path, input] of [
      ["waf.sampledRequests", { ipSetId: bSeed.blocked.id }],
      ["waf.setBlockList", { ipSetId: bSeed.blocked.id }],
      ["waf.block", { ip: "203.0.113.2", ipSetId: bSeed.blocked.id }],
      ["waf.unblock", { ip: "198.51.100.77", ipSetId: bSeed.blocked.id }],
      ["waf.block", { ip: "203.0.113.3", exceptionId: bIds.exceptionId }],
      ["waf.block", { ip: "203.0.113.3", issueId: bIds.issueId }],
      ["waf.block", { ip: "203.0.113.3", projectId: bIds.projectId }],
    ] as const) {
      const result = await callProcedure(ownerA, path, input as never);
      transcripts.push(JSON.stringify(result));
      expect(result.error?.code, `${path} ${JSON.stringify(input)}`).toBe("NOT_FOUND");
    }
    // A mass-assigned organizationId is stripped: the connection lands in A.
    const connect = await callProcedure(ownerA, "waf.connect", massAssigned(keysOf(bSeed.account, "us-west-2"), { organizationId: bOrg }));
    expect(connect.data?.region).toBe("us-west-2");
    expect((await callProcedure(ownerB, "waf.setup", undefined)).data?.connection?.accessKeyId).toBe(`…${bSeed.account.accessKeyId.slice(-4)}`);
    expect(aws.ipSet(bSeed.blocked.id)?.addresses).toEqual(["192.0.2.1/32", "198.51.100.77/32"]);
  });

  it("refuses a member's block, unblock, block-list choice and disconnect with FORBIDDEN (before touching AWS)", async () => {
    const updates = aws.calls.length;
    for (const [path, input] of [
      ["waf.block", { ip: "203.0.113.4" }],
      ["waf.unblock", { ip: "203.0.113.4" }],
      ["waf.setBlockList", { ipSetId: "x" }],
      ["waf.disconnect", undefined],
      ["waf.test", keysOf(bSeed.account)],
    ] as const) {
      const result = await callProcedure(memberA, path, input as never);
      expect(result.error?.code, path).toBe("FORBIDDEN");
    }
    expect(aws.calls.length).toBe(updates);
    expect((await callProcedure(memberA, "waf.ipSets", undefined)).error).toBeUndefined();
  });

  it("leaked nothing of B", () => {
    const everything = transcripts.join("\n");
    for (const secret of [MARKER, bSeed.blocked.id, bSeed.webAcl.id, "198.51.100.77", bIds.exceptionId, bIds.issueId])
      expect(everything.includes(secret), secret).toBe(false);
  });
});
