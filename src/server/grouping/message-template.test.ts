import { describe, expect, it } from "vitest";
import { messageTemplate } from "./message-template";

describe("messageTemplate (grouping v2)", () => {
  it.each([
    ["Invoice INV-2024-98348 charged 357.87 EUR to customer cus_db0791 in 974ms", "Invoice <id> charged <num> EUR to customer <id> in <duration>"],
    ["Export job exp_84d2529 for tenant t817 stalled for 62m55s", "Export job <id> for tenant <id> stalled for <duration>"],
    ["Slow query took 1.64s (request 9d0fad94-996c-4938-ab03-353fa8a00b38)", "Slow query took <duration> (request <uuid>)"],
    ["SKU 'BLUE-3795' missing from /data/warehouses/w75/stock.csv", "SKU <quoted> missing from <path>"],
    ["Login failed for user036@example.com from 10.0.8.84 at 2026-11-10T00:08:00Z", "Login failed for <email> from <ip> at <date>"],
    ["Webhook to https://hooks.acme.test/5aa38d531c failed (status 502)", "Webhook to <url> failed (status <num>)"],
    ["Job %s failed", "Job %s failed"],
    ["can't find user's id", "can't find user's id"],
    ["undefined method Foo::bar", "undefined method Foo::bar"],
  ])("%j → %j", (input, output) => {
    expect(messageTemplate(input)).toBe(output);
  });

  it("keeps a network error's target port when asked, and only for network errors", () => {
    expect(messageTemplate("connect ECONNREFUSED 127.0.0.1:6390", { keepTargetPort: true })).toBe("connect ECONNREFUSED <ip>:6390");
    expect(messageTemplate("getaddrinfo ENOTFOUND redis.internal:6379", { keepTargetPort: true })).toBe("getaddrinfo ENOTFOUND redis.internal:6379");
    expect(messageTemplate("listening on 127.0.0.1:6390", { keepTargetPort: true })).toBe("listening on <ip>");
  });

  it("is fast on hostile input", () => {
    const started = performance.now();
    messageTemplate("a1-".repeat(50_000));
    messageTemplate("/a".repeat(50_000));
    messageTemplate("ECONNREFUSED " + "a".repeat(100_000) + ":1", { keepTargetPort: true });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
