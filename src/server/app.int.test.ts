import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedProject } from "../../test/helpers/seed";
import { startTestServer, type TestServer } from "../../test/helpers/test-server";
import { createLogger } from "./logger";

describe("the process shell", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("answers liveness and readiness", async () => {
    expect(await (await fetch(`${server.url}/api/health`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${server.url}/api/ready`);
    expect(ready.status).toBe(200);
    expect((await ready.json()).status).toBe("ready");
  });

  it("sends security headers and a request id on every response", async () => {
    const response = await fetch(`${server.url}/api/health`, { headers: { "x-request-id": "proxy-request-0001" } });
    expect(response.headers.get("content-security-policy")).toContain("object-src 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-request-id")).toBe("proxy-request-0001");
  });

  it("writes one JSON log line per request without query strings or secrets", async () => {
    const project = await seedProject(server.database.db, "logs");
    await fetch(`${server.url}/api/${project.number}/envelope/?sentry_key=${project.publicKey}`, {
      method: "POST",
      body: "{}\n",
      headers: { authorization: "Bearer top-secret", cookie: "session=top-secret" },
    });
    const lines = server.logs.filter((line) => line.msg === "request" && String(line.path).includes("/envelope/"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: "POST", status: 200, path: `/api/${project.number}/envelope/` });
    expect(typeof lines[0].requestId).toBe("string");
    const all = JSON.stringify(server.logs);
    expect(all).not.toContain(project.publicKey);
    expect(all).not.toContain("top-secret");
  });
});

describe("structured logger", () => {
  it("redacts secret keys at any depth and secret query parameters, one line per record", () => {
    const lines: string[] = [];
    const logger = createLogger("info", (line) => lines.push(line));
    logger.info("x", {
      headers: { authorization: "Bearer a", cookie: "c", "x-sentry-auth": "Sentry sentry_key=k" },
      url: "/api/1/envelope/?sentry_key=abc&x=1",
      nested: { password: "p", note: "line\nbreak" },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith("\n")).toBe(true);
    expect(lines[0].slice(0, -1)).not.toContain("\n");
    const record = JSON.parse(lines[0]);
    expect(record.headers).toEqual({ authorization: "[Filtered]", cookie: "[Filtered]", "x-sentry-auth": "[Filtered]" });
    expect(record.url).toBe("/api/1/envelope/?sentry_key=[Filtered]&x=1");
    expect(record.nested.password).toBe("[Filtered]");
  });
});
