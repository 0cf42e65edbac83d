import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envelopeFor } from "../../../test/helpers/ingest-load";
import { seedProject } from "../../../test/helpers/seed";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/;

/** A strict reading of the text format: every line a HELP, a TYPE or a sample of a declared metric. */
function parseExposition(text: string): Map<string, number> {
  expect(text.endsWith("\n")).toBe(true);
  const samples = new Map<string, number>();
  const declared = new Set<string>();
  for (const line of text.slice(0, -1).split("\n")) {
    const type = line.match(/^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram)$/);
    if (type) declared.add(type[1]);
    if (line.startsWith("# ")) continue;
    const match = line.match(SAMPLE);
    expect(match, line).not.toBeNull();
    const name = match![1];
    expect(declared.has(name) || declared.has(name.replace(/_(bucket|sum|count)$/, "")), `${name} has a TYPE`).toBe(true);
    samples.set(`${name}${match![2] ?? ""}`, Number(match![3]));
  }
  return samples;
}

describe("GET /metrics", () => {
  let server: TestServer;
  let project: Awaited<ReturnType<typeof seedProject>>;
  const scrape = async () => {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    return parseExposition(await response.text());
  };
  const send = (body: string) => fetch(`${server.url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`, { method: "POST", body });

  beforeAll(async () => {
    server = await startTestServer();
    project = await seedProject(server.database.db, "metrics");
  });
  afterAll(() => server?.close());

  it("counts the events ingest committed and refused, and the batches that committed them", async () => {
    const before = await scrape();
    for (let n = 0; n < 3; n++) expect((await send(envelopeFor(crypto.randomUUID().replaceAll("-", ""), n))).status).toBe(200);
    expect((await send(`{}\n{"type":"event"}\nnot json\n`)).status).toBe(400);
    const unknownKey = await fetch(`${server.url}/api/${project.number}/envelope/?sentry_key=${"0".repeat(32)}`, {
      method: "POST",
      body: envelopeFor(crypto.randomUUID().replaceAll("-", ""), 9),
    });
    expect(unknownKey.status).toBe(401);
    const after = await scrape();
    const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    expect(delta("faultline_ingest_accepted_events_total")).toBe(3);
    expect(delta("faultline_ingest_batch_size_count")).toBeGreaterThan(0);
    expect(delta("faultline_ingest_commit_seconds_count")).toBeGreaterThan(0);
    expect(after.get('faultline_ingest_commit_seconds_bucket{le="+Inf"}')).toBe(after.get("faultline_ingest_commit_seconds_count"));
    const refused = [...after].filter(([key]) => key.startsWith('faultline_ingest_refused_events_total{outcome="invalid"'));
    expect(refused.reduce((sum, [key, value]) => sum + value - (before.get(key) ?? 0), 0)).toBe(1);
    expect(delta('faultline_ingest_refused_events_total{outcome="unauthorized",reason="auth_invalid"}')).toBe(1);
  });

  it("reports the job queue per job kind, the pool, the event loop and memory", async () => {
    const samples = await scrape();
    expect(samples.get("faultline_database_up")).toBe(1);
    expect(samples.get('faultline_job_queue_depth{job="alert.deliver",state="due"}')).toBeGreaterThanOrEqual(0);
    expect(samples.get('faultline_db_pool_connections{pool="primary",state="max"}')).toBe(server.database.pool.max);
    expect(samples.get('faultline_db_pool_connections{pool="primary",state="open"}')).toBeGreaterThanOrEqual(1);
    expect(samples.has('faultline_event_loop_delay_seconds{quantile="0.99"}')).toBe(true);
    expect(samples.get("faultline_process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
  });

  it("serves every metric docs/grafana-dashboard.json charts", async () => {
    const dashboard = readFileSync(path.join(import.meta.dirname, "../../../docs/grafana-dashboard.json"), "utf8");
    const charted = new Set([...dashboard.matchAll(/faultline_[a-z_]+/g)].map(([name]) => name.replace(/_(bucket|sum|count)$/, "")));
    const exposition = await (await fetch(`${server.url}/metrics`)).text();
    const served = new Set([...exposition.matchAll(/^# TYPE (\S+) /gm)].map(([, name]) => name));
    expect([...charted].filter((name) => !served.has(name))).toEqual([]);
  });

  it("refuses a loopback request carrying a forwarding header when TRUST_PROXY is unset", async () => {
    const response = await fetch(`${server.url}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1" } });
    expect(response.status).toBe(403);
    expect((await response.json()).error.message).toContain("TRUST_PROXY");
  });
});

describe("GET /metrics with METRICS_TOKEN", () => {
  const token = "metrics-token-for-the-test-0001";
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { METRICS_TOKEN: token } });
  });
  afterAll(() => server?.close());

  it("answers 401 without the token, even on loopback, and 200 with it", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: "Bearer wrong-token-of-some-length" } })).status).toBe(401);
    const answer = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("# TYPE faultline_ingest_accepted_events_total counter");
  });
});
