/**
 * The AWS WAF integration end to end over HTTP (REST and tRPC), the real SDK reaching the loopback
 * stand-in through AWS_ENDPOINT_URL: connect (test first, store only on success), the lists, the
 * block list, block/unblock (no-ops, audit, issue activity), roles, the "failing" status, and the
 * specific errors for deleted and full IP sets.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueActivities, wafConnections } from "../../db/schema/index";
import { AwsStandIn } from "../../../../test/stand-ins/aws/aws-stand-in";
import { callProcedure } from "../../../../test/helpers/typed-trpc";
import { issueByType, sendEvent, triageTenant } from "../../../../test/helpers/triage-seed";
import { lastMail, signUpVerified } from "../../../../test/helpers/test-users";
import { keysOf, RecordingSession, seedWafAccount, startWafTestServer, type TestServer } from "../../../../test/helpers/waf-test-server";

describe("AWS WAF integration over HTTP", () => {
  let aws: AwsStandIn;
  let server: TestServer;
  let owner: RecordingSession;
  let member: RecordingSession;
  let orgId: string;
  let seeded: ReturnType<typeof seedWafAccount>;
  let origin: { projectId: string; issueId: string; exceptionId: string };
  const base = () => `/api/v1/organizations/${orgId}/integrations`;

  beforeAll(async () => {
    aws = await new AwsStandIn().start();
    ({ server } = await startWafTestServer(aws));
    seeded = seedWafAccount(aws);
    const tenant = await triageTenant(server, "Waf Org");
    orgId = tenant.org.id;
    owner = new RecordingSession(server.url);
    for (const [name, value] of tenant.session.cookies) owner.cookies.set(name, value);
    await sendEvent(server, tenant.project, { type: "CheckoutError", value: "card declined", fn: "checkout", user: { ip_address: "198.51.100.23" } });
    const issue = await issueByType(tenant.session, tenant.project.id, "CheckoutError");
    const exceptions = await callProcedure(tenant.session, "exception.list", { projectId: tenant.project.id, issueId: issue.id });
    origin = { projectId: tenant.project.id, issueId: issue.id, exceptionId: exceptions.data!.items[0]!.id };

    const email = `member-${Date.now()}@example.com`;
    await tenant.session.request("/api/auth/organization/invite-member", { body: { email, role: "member" } });
    const joined = await signUpVerified(server, { email });
    await joined.session.request("/api/auth/organization/accept-invitation", {
      body: { invitationId: new URL(lastMail(server, email, "invitation").actionUrl).searchParams.get("invitationId") },
    });
    await joined.session.request("/api/auth/organization/set-active", { body: { organizationId: orgId } });
    member = new RecordingSession(server.url);
    for (const [name, value] of joined.session.cookies) member.cookies.set(name, value);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await aws?.close();
  });

  it("is not connected at first: the list says so and GET answers 404 with a clear message", async () => {
    const list = await owner.request(base());
    expect(list.body).toEqual([{ id: "aws-waf", name: "AWS WAF", status: "not_connected", lastError: null, connectedAt: null }]);
    const get = await owner.request(`${base()}/aws/waf`);
    expect([get.status, get.body.error.message]).toEqual([404, "The AWS WAF integration is not connected"]);
    const setup = await callProcedure(owner, "waf.setup", undefined);
    expect(setup.data).toMatchObject({
      connection: null,
      canManage: true,
      rolesAvailable: true,
      externalId: expect.stringMatching(/^faultline-[0-9a-f]{32}$/),
    });
  });

  it("validates each field of the connect body with its own message", async () => {
    const bad = await owner.request(`${base()}/aws/waf`, {
      method: "PUT",
      body: { region: "mars-1", scope: "CLOUDFRONT", accessKeyId: "nope", secretAccessKey: "short" },
    });
    expect(bad.status).toBe(400);
    const paths = bad.body.error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["region", "accessKeyId", "secretAccessKey"]));
    const cloudfront = await owner.request(`${base()}/aws/waf`, { method: "PUT", body: { ...keysOf(seeded.account), scope: "CLOUDFRONT" } });
    expect(cloudfront.body.error.details.issues).toEqual([{ path: "region", message: "CloudFront web ACLs are managed in us-east-1" }]);
  });

  it("stores nothing when AWS refuses the credentials, and says why", async () => {
    const wrong = await owner.request(`${base()}/aws/waf`, { method: "PUT", body: { ...keysOf(seeded.account), secretAccessKey: "A".repeat(40) } });
    expect([wrong.status, wrong.body.error.message]).toEqual([
      400,
      "AWS rejected the credentials (InvalidSignatureException): check the access key id and secret access key",
    ]);
    const [row] = await server.database.db.select().from(wafConnections).where(eq(wafConnections.organizationId, orgId));
    expect([row?.connectedAt, row?.secretAccessKeySealed, row?.accessKeyIdSealed]).toEqual([null, null, null]);
    const denied = aws.addAccount({ denied: ["wafv2:ListWebACLs"] });
    const noPermission = await owner.request(`${base()}/aws/waf`, { method: "PUT", body: keysOf(denied) });
    expect([noPermission.status, noPermission.body.error.message]).toEqual([
      400,
      "AWS denied wafv2:ListWebACLs: allow it in the IAM policy of these credentials",
    ]);
  });

  it("tests, then connects: the key id is masked to its last 4 characters and the secret never comes back", async () => {
    const tested = await callProcedure(owner, "waf.test", keysOf(seeded.account));
    expect(tested.data).toEqual({ webAcls: [{ id: seeded.webAcl.id, name: "shop-acl" }], ipSetCount: 3 });
    expect((await owner.request(base())).body[0].status).toBe("not_connected");

    const member1 = await member.request(`${base()}/aws/waf`, { method: "PUT", body: keysOf(seeded.account) });
    expect(member1.status).toBe(403);
    const connected = await owner.request(`${base()}/aws/waf`, { method: "PUT", body: keysOf(seeded.account) });
    expect(connected.status, connected.text).toBe(200);
    expect(connected.body).toMatchObject({
      status: "connected",
      region: "eu-west-1",
      scope: "REGIONAL",
      accessKeyId: `…${seeded.account.accessKeyId.slice(-4)}`,
      roleArn: null,
      blockList: null,
    });
    expect(connected.text).not.toContain(seeded.account.accessKeyId);
    expect(connected.text).not.toContain(seeded.account.secretAccessKey);
    const list = await member.request(base());
    expect(list.body[0]).toMatchObject({ status: "connected", lastError: null });
  });

  it("lists web ACLs with their rules and IP sets with addresses and the rules that reference them (members read too)", async () => {
    const acls = await member.request(`${base()}/aws/waf/web-acls`);
    expect(acls.body).toEqual([
      {
        id: seeded.webAcl.id,
        name: "shop-acl",
        arn: seeded.webAcl.arn,
        rules: [
          { name: "block-faultline", priority: 0, action: "Block", ipSetArn: seeded.blocked.arn, ipSetId: seeded.blocked.id },
          { name: "count-v6", priority: 1, action: "Count", ipSetArn: seeded.blockedV6.arn, ipSetId: seeded.blockedV6.id },
        ],
      },
    ]);
    const ipSets = await member.request(`${base()}/aws/waf/ip-sets`);
    const byName = Object.fromEntries(ipSets.body.map((ipSet: { name: string }) => [ipSet.name, ipSet]));
    expect(byName["faultline-blocked"]).toMatchObject({
      version: "IPV4",
      addresses: ["192.0.2.1/32"],
      isBlockList: false,
      referencedBy: [{ webAclName: "shop-acl", ruleName: "block-faultline", action: "Block" }],
    });
    expect(byName.unreferenced.referencedBy).toEqual([]);
  });

  it("chooses the block list (owners and admins only) and refuses an IP set that does not exist", async () => {
    expect((await member.request(`${base()}/aws/waf/block-list`, { method: "PUT", body: { ipSetId: seeded.blocked.id } })).status).toBe(403);
    const missing = await owner.request(`${base()}/aws/waf/block-list`, { method: "PUT", body: { ipSetId: "no-such-set" } });
    expect(missing.status).toBe(404);
    const chosen = await owner.request(`${base()}/aws/waf/block-list`, { method: "PUT", body: { ipSetId: seeded.blocked.id } });
    expect(chosen.body.blockList).toEqual({ ipSetId: seeded.blocked.id, name: "faultline-blocked", scope: "REGIONAL", version: "IPV4" });
  });

  it("blocks the exception's client IP as /32, records who and where from, and treats repeats as no-ops", async () => {
    expect((await member.request(`${base()}/aws/waf/blocks`, { method: "POST", body: { ip: "198.51.100.23", ...origin } })).status).toBe(403);
    const blocked = await owner.request(`${base()}/aws/waf/blocks`, { method: "POST", body: { ip: "198.51.100.23", exceptionId: origin.exceptionId } });
    expect([blocked.status, blocked.body]).toEqual([
      201,
      { cidr: "198.51.100.23/32", ipSet: { id: seeded.blocked.id, name: "faultline-blocked" }, blocked: true, outcome: "changed" },
    ]);
    expect(aws.ipSet(seeded.blocked.id)?.addresses).toEqual(["192.0.2.1/32", "198.51.100.23/32"]);
    const again = await owner.request(`${base()}/aws/waf/blocks`, { method: "POST", body: { ip: "198.51.100.23/32" } });
    expect([again.status, again.body.outcome]).toEqual([201, "unchanged"]);
    expect(aws.ipSet(seeded.blocked.id)?.addresses).toHaveLength(2);

    const status = await callProcedure(member, "waf.blockStatus", { ip: "198.51.100.23" });
    expect(status.data).toEqual({ cidr: "198.51.100.23/32", blockList: { id: seeded.blocked.id, name: "faultline-blocked" }, blocked: true });

    const activity = await server.database.db
      .select()
      .from(issueActivities)
      .where(and(eq(issueActivities.issueId, origin.issueId), eq(issueActivities.kind, "waf_block")));
    expect(activity.map((row) => [row.fromValue, row.toValue, row.projectId])).toEqual([["faultline-blocked", "198.51.100.23/32", origin.projectId]]);
    const issue = await callProcedure(owner, "issue.get", { projectId: origin.projectId, issueId: origin.issueId });
    expect(issue.data?.activity[0]).toMatchObject({ kind: "waf_block", to: "198.51.100.23/32", from: "faultline-blocked" });
  });

  it("unblocks through DELETE /blocks/{ip}, an absent address being a no-op, and keeps the whole history", async () => {
    const removed = await owner.request(`${base()}/aws/waf/blocks/198.51.100.23?issueId=${origin.issueId}`, { method: "DELETE" });
    expect([removed.status, removed.body.outcome, removed.body.blocked]).toEqual([200, "changed", false]);
    expect(aws.ipSet(seeded.blocked.id)?.addresses).toEqual(["192.0.2.1/32"]);
    const absent = await owner.request(`${base()}/aws/waf/blocks/${encodeURIComponent("198.51.100.23/32")}`, { method: "DELETE" });
    expect(absent.body.outcome).toBe("unchanged");
    const audit = await member.request(`${base()}/aws/waf/audit`);
    expect(audit.body.map((entry: { action: string; outcome: string; cidr: string }) => [entry.action, entry.outcome, entry.cidr])).toEqual([
      ["unblock", "unchanged", "198.51.100.23/32"],
      ["unblock", "changed", "198.51.100.23/32"],
      ["block", "unchanged", "198.51.100.23/32"],
      ["block", "changed", "198.51.100.23/32"],
    ]);
    expect(audit.body[3]).toMatchObject({
      exceptionId: origin.exceptionId,
      issueId: origin.issueId,
      projectId: origin.projectId,
      actor: { name: "Waf Org User" },
    });
  });

  it("validates addresses: not an IP, too wide, or the wrong family for the IP set", async () => {
    const notIp = await owner.request(`${base()}/aws/waf/blocks`, { method: "POST", body: { ip: "shop.example" } });
    expect([notIp.status, notIp.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    const wide = await owner.request(`${base()}/aws/waf/blocks`, { method: "POST", body: { ip: "10.0.0.0/4" } });
    expect(wide.body.error.message).toContain("wider than /8");
    const v6 = await owner.request(`${base()}/aws/waf/blocks`, { method: "POST", body: { ip: "2001:db8::1" } });
    expect([v6.status, v6.body.error.message]).toEqual([400, "The IP set faultline-blocked holds IPv4 addresses; 2001:db8::1/128 is IPv6"]);
    const intoV6 = await owner.request(`${base()}/aws/waf/blocks`, { method: "POST", body: { ip: "2001:DB8:0::1", ipSetId: seeded.blockedV6.id } });
    expect([intoV6.status, intoV6.body.cidr]).toEqual([201, "2001:db8::1/128"]);
    expect(aws.ipSet(seeded.blockedV6.id)?.addresses).toEqual(["2001:db8::1/128"]);
  });

  it("links sampled requests of the rules referencing an IP set to the exceptions seen from each client IP", async () => {
    aws.addSample({
      webAclArn: seeded.webAcl.arn,
      ruleMetricName: "block-faultline",
      clientIp: "198.51.100.23",
      uri: "/checkout",
      method: "POST",
      country: "NL",
      action: "BLOCK",
    });
    aws.addSample({
      webAclArn: seeded.webAcl.arn,
      ruleMetricName: "block-faultline",
      clientIp: "203.0.113.200",
      uri: "/",
      method: "GET",
      country: "US",
      action: "BLOCK",
    });
    aws.addSample({
      webAclArn: seeded.webAcl.arn,
      ruleMetricName: "block-faultline",
      clientIp: "203.0.113.201",
      uri: "/old",
      method: "GET",
      country: "US",
      action: "BLOCK",
      at: new Date(Date.now() - 4 * 3600_000),
    });
    const sampled = await member.request(`${base()}/aws/waf/ip-sets/${seeded.blocked.id}/sampled-requests`);
    expect(sampled.status, sampled.text).toBe(200);
    const byIp = Object.fromEntries(sampled.body.requests.map((request: { clientIp: string }) => [request.clientIp, request]));
    expect(Object.keys(byIp).sort()).toEqual(["198.51.100.23", "203.0.113.200"]);
    expect(byIp["198.51.100.23"]).toMatchObject({
      ruleName: "block-faultline",
      webAclName: "shop-acl",
      uri: "/checkout",
      exceptions: [{ exceptionId: origin.exceptionId, issueId: origin.issueId }],
    });
    expect(byIp["203.0.113.200"].exceptions).toEqual([]);
  });

  it("names a deleted IP set and a full one specifically", async () => {
    const full = aws.addIpSet(seeded.home, { name: "full", addresses: Array.from({ length: 10_000 }, (_, i) => `10.${(i >> 8) & 255}.${i & 255}.1/32`) });
    const tooMany = await owner.request(`${base()}/aws/waf/blocks`, { method: "POST", body: { ip: "203.0.113.5", ipSetId: full.id } });
    expect([tooMany.status, tooMany.body.error.message]).toEqual([400, "The IP set is full: AWS WAF allows at most 10,000 addresses in one IP set"]);
    aws.deleteIpSet(seeded.blockedV6.id);
    const gone = await owner.request(`${base()}/aws/waf/ip-sets/${seeded.blockedV6.id}/sampled-requests`);
    expect(gone.status).toBe(404);
    const deletedBlockList = aws.addIpSet(seeded.home, { name: "to-delete" });
    await owner.request(`${base()}/aws/waf/block-list`, { method: "PUT", body: { ipSetId: deletedBlockList.id } });
    aws.deleteIpSet(deletedBlockList.id);
    const blockIntoDeleted = await owner.request(`${base()}/aws/waf/blocks`, { method: "POST", body: { ip: "203.0.113.6" } });
    expect([blockIntoDeleted.status, blockIntoDeleted.body.error.message]).toEqual([404, "The IP set no longer exists in AWS WAF (deleted in AWS?)"]);
    await owner.request(`${base()}/aws/waf/block-list`, { method: "PUT", body: { ipSetId: seeded.blocked.id } });
  });

  it("marks the connection failing with AWS's reason when the stored credentials stop working, and connected again once they work", async () => {
    const secret = seeded.account.secretAccessKey;
    seeded.account.secretAccessKey = "B".repeat(40); // rotated in AWS behind Faultline's back
    const failing = await member.request(`${base()}/aws/waf/ip-sets`);
    expect(failing.status).toBe(400);
    const list = await member.request(base());
    expect(list.body[0]).toMatchObject({ status: "failing", lastError: expect.stringContaining("AWS rejected the credentials") });
    seeded.account.secretAccessKey = secret;
    expect((await member.request(`${base()}/aws/waf/ip-sets`)).status).toBe(200);
    expect((await member.request(base())).body[0]).toMatchObject({ status: "connected", lastError: null });
  });

  it("connects through a role with the organization's ExternalId, replacing the keys in place", async () => {
    const setup = await callProcedure(owner, "waf.setup", undefined);
    const faultline = [...aws.accounts.values()].find((account) => account.accountId === "999999999999")!;
    const role = aws.addRole(seeded.account, faultline);
    const wrongTrust = await owner.request(`${base()}/aws/waf`, { method: "PUT", body: { region: "eu-west-1", scope: "REGIONAL", roleArn: role.arn } });
    expect([wrongTrust.status, wrongTrust.body.error.message]).toEqual([400, "AWS denied sts:AssumeRole: allow it in the IAM policy of these credentials"]);
    expect((await owner.request(`${base()}/aws/waf`)).body.accessKeyId).toMatch(/^…/);
    role.setExternalId(setup.data!.externalId);
    const viaRole = await owner.request(`${base()}/aws/waf`, { method: "PUT", body: { region: "eu-west-1", scope: "REGIONAL", roleArn: role.arn } });
    expect(viaRole.status, viaRole.text).toBe(200);
    expect(viaRole.body).toMatchObject({ roleArn: role.arn, accessKeyId: null, externalId: setup.data!.externalId, blockList: { ipSetId: seeded.blocked.id } });
    const [row] = await server.database.db.select().from(wafConnections).where(eq(wafConnections.organizationId, orgId));
    expect([row?.accessKeyIdSealed, row?.secretAccessKeySealed]).toEqual([null, null]);
    expect((await member.request(`${base()}/aws/waf/web-acls`)).body[0].name).toBe("shop-acl");

    // Keys of another AWS account (same region and scope): the old block list is not there, so it is forgotten.
    const other = seedWafAccount(aws);
    const switched = await owner.request(`${base()}/aws/waf`, { method: "PUT", body: keysOf(other.account) });
    expect([switched.status, switched.body.blockList, switched.body.roleArn]).toEqual([200, null, null]);
  });

  it("disconnects (owners and admins only): the credentials are gone, the audit stays", async () => {
    expect((await member.request(`${base()}/aws/waf`, { method: "DELETE" })).status).toBe(403);
    const gone = await owner.request(`${base()}/aws/waf`, { method: "DELETE" });
    expect([gone.status, gone.body]).toEqual([200, { disconnected: true }]);
    expect((await owner.request(`${base()}/aws/waf`)).status).toBe(404);
    expect((await owner.request(`${base()}/aws/waf/ip-sets`)).status).toBe(404);
    expect((await owner.request(`${base()}/aws/waf/audit`)).body.length).toBeGreaterThanOrEqual(5);
    expect((await callProcedure(owner, "waf.blockStatus", { ip: "198.51.100.23" })).data).toEqual({
      cidr: "198.51.100.23/32",
      blockList: null,
      blocked: false,
    });
  });
});
