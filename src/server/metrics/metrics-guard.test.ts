import { describe, expect, it } from "vitest";
import { metricsGuard } from "./metrics-guard";

/** Runs the guard on a request as Express hands it over; answers the status it chose (200: let through). */
function statusOf(guard: ReturnType<typeof metricsGuard>, remoteAddress: string, headers: Record<string, string> = {}): number {
  let status = 200;
  const res = { setHeader: () => res, status: (code: number) => ((status = code), res), json: () => res };
  const req = { socket: { remoteAddress }, headers, id: "test", ip: remoteAddress };
  guard(req as never, res as never, () => {});
  return status;
}

const TOKEN = "a-metrics-token-of-some-length";

describe("who may read /metrics", () => {
  it("with METRICS_TOKEN: the Bearer token only, from anywhere", () => {
    const guard = metricsGuard(TOKEN, 0);
    expect(statusOf(guard, "203.0.113.7", { authorization: `Bearer ${TOKEN}` })).toBe(200);
    expect(statusOf(guard, "127.0.0.1")).toBe(401);
    expect(statusOf(guard, "127.0.0.1", { authorization: `Bearer ${TOKEN}x` })).toBe(401);
    expect(statusOf(guard, "127.0.0.1", { authorization: `Basic ${TOKEN}` })).toBe(401);
  });

  it("without: a loopback peer that came straight, not one through an untrusted proxy, not one elsewhere", () => {
    const guard = metricsGuard(undefined, 0);
    expect(statusOf(guard, "127.0.0.1")).toBe(200);
    expect(statusOf(guard, "::1")).toBe(200);
    expect(statusOf(guard, "127.0.0.1", { "x-forwarded-for": "127.0.0.1" })).toBe(403);
    expect(statusOf(guard, "127.0.0.1", { forwarded: "for=203.0.113.7" })).toBe(403);
    expect(statusOf(guard, "198.51.100.4")).toBe(403);
  });
});
