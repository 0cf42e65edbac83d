/**
 * IP set writes under concurrency. Two replicas (two app instances on one database, so the
 * in-process queue does not order them) block at once while the stand-in forces a lock conflict:
 * both addresses end up in the set. Twenty concurrent blocks through one instance: twenty
 * addresses, none lost.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AwsStandIn } from "../../../../test/stand-ins/aws/aws-stand-in";
import { HttpSession } from "../../../../test/helpers/http-session";
import { triageTenant } from "../../../../test/helpers/triage-seed";
import { keysOf, seedWafAccount, startWafTestServer, type TestServer } from "../../../../test/helpers/waf-test-server";

describe("IP set updates racing", () => {
  let aws: AwsStandIn;
  let replicaA: TestServer;
  let replicaB: TestServer;
  let seeded: ReturnType<typeof seedWafAccount>;
  let onA: HttpSession;
  let onB: HttpSession;
  let base: string;

  beforeAll(async () => {
    aws = await new AwsStandIn().start();
    ({ server: replicaA } = await startWafTestServer(aws));
    ({ server: replicaB } = await startWafTestServer(aws, { database: replicaA.database }));
    seeded = seedWafAccount(aws);
    const tenant = await triageTenant(replicaA, "Racing");
    onA = tenant.session;
    // The same browser session, sent to the other replica.
    onB = new HttpSession(replicaB.url);
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
    base = `/api/v1/organizations/${tenant.org.id}/integrations/aws/waf`;
    expect((await onA.request(base, { method: "PUT", body: keysOf(seeded.account) })).status).toBe(200);
    expect((await onA.request(`${base}/block-list`, { method: "PUT", body: { ipSetId: seeded.blocked.id } })).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await replicaB?.close();
    await replicaA?.close();
    await aws?.close();
  });

  it("two replicas blocking at once, with a forced lock conflict: both addresses end up in the set", async () => {
    aws.updateDelayMs = 150;
    aws.forcedLockConflicts = 1;
    const updatesBefore = aws.calls.filter((call) => call.operation === "UpdateIPSet").length;
    const [first, second] = await Promise.all([
      onA.request(`${base}/blocks`, { method: "POST", body: { ip: "203.0.113.1" } }),
      onB.request(`${base}/blocks`, { method: "POST", body: { ip: "203.0.113.2" } }),
    ]);
    aws.updateDelayMs = 0;
    expect([first.status, second.status], `${first.text} ${second.text}`).toEqual([201, 201]);
    expect(aws.ipSet(seeded.blocked.id)?.addresses.sort()).toEqual(["192.0.2.1/32", "203.0.113.1/32", "203.0.113.2/32"]);
    const updates = aws.calls.filter((call) => call.operation === "UpdateIPSet").slice(updatesBefore);
    // At least one writer was refused (the forced conflict, and the other replica's write) and retried.
    expect(updates.filter((call) => call.status === 400).length).toBeGreaterThanOrEqual(1);
    expect(updates.filter((call) => call.status === 200)).toHaveLength(2);
  });

  it("twenty concurrent blocks: twenty addresses, none lost", async () => {
    const ips = Array.from({ length: 20 }, (_, i) => `198.51.100.${i + 1}`);
    const started = performance.now();
    const answers = await Promise.all(ips.map((ip, i) => (i % 2 ? onA : onB).request(`${base}/blocks`, { method: "POST", body: { ip } })));
    const ms = Math.round(performance.now() - started);
    expect(answers.map((answer) => answer.status)).toEqual(ips.map(() => 201));
    const addresses = aws.ipSet(seeded.blocked.id)!.addresses;
    for (const ip of ips) expect(addresses).toContain(`${ip}/32`);
    expect(addresses).toHaveLength(23);
    const audit = await onA.request(`${base}/audit?limit=200`);
    expect(audit.body.filter((entry: { outcome: string; cidr: string }) => entry.outcome === "changed" && entry.cidr.startsWith("198.51.100."))).toHaveLength(
      20,
    );
    console.log(`20 concurrent blocks over 2 replicas: ${ms} ms`);
  });
});
