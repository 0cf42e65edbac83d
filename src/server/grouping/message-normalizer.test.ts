import { describe, expect, it } from "vitest";
import { normalizeMessage } from "./message-normalizer";

describe("normalizeMessage", () => {
  it.each([
    ["Order 1234 not found", "Order <num> not found"],
    ["Cart too large: 400 items", "Cart too large: <num> items"],
    ["[Errno 111] Connection refused: 127.0.0.1:5432", "[Errno <num>] Connection refused: <ip>"],
    ["user 3f2a1b9c-0d4e-4f5a-8b6c-7d8e9f0a1b2c missing", "user <uuid> missing"],
    ["mail to ada.lovelace+x@example.co.uk bounced", "mail to <email> bounced"],
    ["GET https://api.example.com/v1/users/42?x=1 failed", "GET <url> failed"],
    ["bad pointer 0xDEADBEEF", "bad pointer <hex>"],
    ["commit 9f86d081884c7d65 not found", "commit <hex> not found"],
    ["host fe80::1:2:3 down", "host <ip> down"],
    ["ping ::1 failed", "ping <ip> failed"],
    ["undefined method Foo::bar", "undefined method Foo::bar"],
    ["at 2026-11-21T14:20:06.055Z it broke", "at <date> it broke"],
    ["invalid coupon code 'SPRING'", "invalid coupon code <quoted>"],
    ['key "card_token" missing', "key <quoted> missing"],
    ["can't find user's id", "can't find user's id"],
    ["  spaces   collapse\n", "spaces collapse"],
  ])("%j → %j", (input, output) => {
    expect(normalizeMessage(input)).toBe(output);
  });

  it("is fast on hostile input", () => {
    const started = performance.now();
    normalizeMessage("a".repeat(100_000) + "@");
    normalizeMessage("1.".repeat(50_000));
    normalizeMessage("'".repeat(50_000));
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
