import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import type { AppServices } from "../context";
import { API_ROUTES, buildOpenApiDocument } from "./openapi";
import { listRoutes } from "./route-list";
import { createV1Router } from "./v1.router";

type Operation = {
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
};

describe("OpenAPI document of /api/v1", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const document = buildOpenApiDocument();
  const operation = (method: string, path: string) => (document.paths as Record<string, Record<string, Operation>>)[path]?.[method];

  it("documents every route registered on the v1 router, and nothing else", () => {
    // Registering routes touches no service; only the project routes read the API URL.
    const registered = listRoutes(createV1Router({ env: { API_URL: "http://localhost" } } as unknown as AppServices));
    expect(registered.length).toBeGreaterThanOrEqual(13);
    for (const route of registered) {
      const path = route.path.replace(/:(\w+)/g, "{$1}");
      expect(operation(route.method, path), `${route.method.toUpperCase()} ${route.path}`).toBeDefined();
    }
    expect(API_ROUTES.map((route) => `${route.method} ${route.path}`).sort()).toEqual(registered.map((route) => `${route.method} ${route.path}`).sort());
  });

  it("derives parameters and bodies from the shared zod inputs", () => {
    const issues = operation("get", "/organizations/{orgId}/projects/{projectId}/issues")!;
    const byName = Object.fromEntries(issues.parameters.map((parameter) => [parameter.name, parameter]));
    expect(byName.orgId.in).toBe("path");
    expect(byName.projectId).toMatchObject({ in: "path", required: true, schema: { format: "uuid" } });
    expect(byName.size).toMatchObject({ in: "query", required: false, schema: { maximum: 100, default: 20 } });
    expect(byName.sort.schema).toMatchObject({ default: "lastSeen:DESC" });
    expect(byName.environments).toMatchObject({ explode: true, schema: { type: "array", items: { enum: ["PRODUCTION", "STAGING", "DEVELOPMENT"] } } });
    expect(byName.dateFrom.schema).toMatchObject({ type: "string", format: "date-time" });
    const status = operation("put", "/organizations/{orgId}/projects/{projectId}/issues/{issueId}/status")!;
    expect(Object.keys(status.requestBody!.content["application/json"].schema.properties)).toEqual(["status"]);
    const daily = operation("get", "/organizations/{orgId}/projects/{projectId}/exceptions/statistics/daily")!;
    expect(daily.parameters.filter((parameter) => parameter.required && parameter.in === "query").map((parameter) => parameter.name)).toEqual(["from", "to"]);
  });

  it("is served publicly at /api/v1/openapi.json", async () => {
    const response = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const served = await response.json();
    expect(served.openapi).toBe("3.1.0");
    expect(served).toEqual(JSON.parse(JSON.stringify(document)));
  });
});
