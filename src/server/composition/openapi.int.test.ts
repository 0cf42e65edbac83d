import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { contractIssues, documentedResponse, responseSchemaOf, type OpenApiDocument } from "../../../test/helpers/openapi-contract";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createOrganization } from "../../../test/helpers/test-users";
import { sendAnalyticsEvent, sendEvent, triageTenant, utcDay } from "../../../test/helpers/triage-seed";
import { listRoutes } from "../rest/route-list";
import { openApiDocument, REST_ROUTES } from "./rest-routes";
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

  const document = openApiDocument();
  const operation = (method: string, path: string) => (document.paths as Record<string, Record<string, Operation>>)[path]?.[method];

  it("documents every route registered on the v1 router, and nothing else", () => {
    const registered = listRoutes(createV1Router(server.services));
    expect(registered.length).toBeGreaterThanOrEqual(13);
    for (const route of registered) {
      const path = route.path.replace(/:(\w+)/g, "{$1}");
      expect(operation(route.method, path), `${route.method.toUpperCase()} ${route.path}`).toBeDefined();
    }
    // Routes mounted ahead of the v1 router (the payment webhook reads its raw body) are documented too, but not registered on it.
    const onV1 = REST_ROUTES.filter((route) => !("mountedBeforeJson" in route));
    expect(onV1.map((route) => `${route.method} ${route.path}`).sort()).toEqual(registered.map((route) => `${route.method} ${route.path}`).sort());
  });

  it("derives parameters and bodies from the shared zod inputs", () => {
    const issues = operation("get", "/organizations/{orgId}/projects/{projectId}/issues")!;
    const byName = Object.fromEntries(issues.parameters.map((parameter) => [parameter.name, parameter]));
    // Path ids take names too (an organization's slug; a project's number or slug), so they are documented as strings.
    expect(byName.orgId).toMatchObject({ in: "path", required: true, schema: { type: "string", description: "The organization's id or slug" } });
    expect(byName.projectId).toMatchObject({
      in: "path",
      required: true,
      schema: { type: "string", description: "The project's id (a UUID), number or slug" },
    });
    expect(byName.projectId.schema).not.toHaveProperty("format");
    expect(byName.size).toMatchObject({ in: "query", required: false, schema: { maximum: 100, default: 20 } });
    expect(byName.sort.schema).toMatchObject({ default: "lastSeen:DESC" });
    expect(byName.environments).toMatchObject({ explode: true, schema: { type: "array", items: { enum: ["PRODUCTION", "STAGING", "DEVELOPMENT"] } } });
    expect(byName.dateFrom.schema).toMatchObject({ type: "string", format: "date-time" });
    const status = operation("put", "/organizations/{orgId}/projects/{projectId}/issues/{issueId}/status")!;
    const statusBody = status.requestBody!.content["application/json"].schema as { properties: Record<string, unknown>; required?: string[] };
    expect(Object.keys(statusBody.properties)).toEqual(["status", "inRelease"]);
    // Resolve in a release (issue 34): optional, a version or "next".
    expect(statusBody.required).toEqual(["status"]);
    expect(statusBody.properties.inRelease).toMatchObject({ type: "string", maxLength: 200 });
    const daily = operation("get", "/organizations/{orgId}/projects/{projectId}/exceptions/statistics/daily")!;
    expect(daily.parameters.filter((parameter) => parameter.required && parameter.in === "query").map((parameter) => parameter.name)).toEqual(["from", "to"]);
  });

  it("documents the front door: the caller's organizations (any API token reads its own) and one organization", () => {
    const list = operation("get", "/organizations") as Operation & {
      security: unknown[];
      responses: Record<string, { content: Record<string, { schema: unknown }> }>;
    };
    expect(list.parameters).toEqual([]);
    expect(list.security).toEqual([{ session: [] }, { apiToken: [] }]);
    expect(list.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/OrganizationList" });
    const one = operation("get", "/organizations/{orgId}") as Operation & { security: unknown[] };
    expect(one.parameters.map((parameter) => parameter.name)).toEqual(["orgId"]);
    expect(one.security).toEqual([{ session: [] }, { apiToken: [] }]);
  });

  it("is served publicly at /api/v1/openapi.json", async () => {
    const response = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const served = await response.json();
    expect(served.openapi).toBe("3.1.0");
    expect(served).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it("answers an unknown path under /api and under /api/v1 with the one 404 body", async () => {
    for (const path of ["/api/no-such-thing", "/api/v1/no-such-thing"]) {
      const response = await fetch(`${server.url}${path}?q=1`);
      expect(response.status, path).toBe(404);
      const body = await response.json();
      expect(body, path).toEqual({ error: { code: "NOT_FOUND", message: `No route for GET ${path}`, requestId: expect.any(String) } });
      expect(body.error.requestId, path).not.toBe("");
    }
  });

  it("gives every operation of the document a 200, 201 or 202 response schema that names one of its components", () => {
    const components = document.components.schemas as Record<string, unknown>;
    let operations = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, { responses }] of Object.entries(methods as Record<string, { responses: Record<string, unknown> }>)) {
        operations += 1;
        const label = `${method.toUpperCase()} ${path}`;
        const success = Object.keys(responses).filter((status) => status.startsWith("2"));
        expect(success.length === 1 && ["200", "201", "202"].includes(success[0]), `${label} answers ${success.join(", ")}`).toBe(true);
        const schema = responseSchemaOf(document, method, path, Number(success[0]));
        expect(schema?.$ref, label).toMatch(/^#\/components\/schemas\//);
        expect(components, label).toHaveProperty([String(schema!.$ref).replace("#/components/schemas/", "")]);
        expect(() => documentedResponse(document, method, path, Number(success[0])), label).not.toThrow();
      }
    }
    expect(operations).toBe(REST_ROUTES.length);
  });

  describe("live answers match the documented response schemas", () => {
    let served: OpenApiDocument;
    let tenant: Awaited<ReturnType<typeof triageTenant>>;
    let base: string;

    /** Calls a route and checks its answer against the served document (by the route's OpenAPI path). */
    const expectDocumented = async (method: string, path: string, url: string, status: number, body?: unknown) => {
      const response = await tenant.session.request(`/api/v1${url}`, { method: method.toUpperCase(), body });
      expect(response.status, `${method.toUpperCase()} ${url}: ${response.text}`).toBe(status);
      expect(contractIssues(documentedResponse(served, method, path, status), response.body), `${method.toUpperCase()} ${path}`).toEqual([]);
      return response.body;
    };

    beforeAll(async () => {
      served = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
      tenant = await triageTenant(server, "Contract");
      await sendEvent(server, tenant.project, { type: "ContractError", value: "boom", fn: "handler", tags: { browser: "firefox" }, release: "1.0.0" });
      await sendAnalyticsEvent(server, tenant.project, "signup", { plan: "free" });
      base = `/organizations/${tenant.org.id}/projects/${tenant.project.id}`;
    });

    it("for the organization routes", async () => {
      const listed = (await expectDocumented("get", "/organizations", "/organizations", 200)) as { slug: string }[];
      expect(listed.map((org) => org.slug)).toEqual([tenant.org.slug]);
      await expectDocumented("get", "/organizations/{orgId}", `/organizations/${tenant.org.slug}`, 200);
    });

    it("for the project, issue, exception, statistics and event routes", async () => {
      const P = "/organizations/{orgId}/projects";
      const PP = `${P}/{projectId}`;
      const projects = (await expectDocumented("get", P, `/organizations/${tenant.org.id}/projects`, 200)) as unknown[];
      expect(projects.length).toBeGreaterThan(0);
      await expectDocumented("post", P, `/organizations/${tenant.org.id}/projects`, 201, { name: "Contract two", platform: "PYTHON" });
      await expectDocumented("get", PP, base, 200);
      const page = (await expectDocumented("get", `${PP}/issues`, `${base}/issues`, 200)) as { items: { id: string }[] };
      expect(page.items.length).toBeGreaterThan(0);
      const issueId = page.items[0].id;
      await expectDocumented("put", `${PP}/issues/{issueId}/status`, `${base}/issues/${issueId}/status`, 200, { status: "RESOLVED" });
      await expectDocumented("put", `${PP}/issues/{issueId}/severity`, `${base}/issues/${issueId}/severity`, 200, { severity: "LOW" });
      await expectDocumented("post", `${PP}/issues/bulk-status`, `${base}/issues/bulk-status`, 200, { issueIds: [issueId], status: "OPEN" });
      // The tag breakdown is written about once a second; wait for it so its schema is exercised too.
      await vi.waitFor(
        async () => {
          const issue = (await expectDocumented("get", `${PP}/issues/{issueId}`, `${base}/issues/${issueId}`, 200)) as { tags: unknown[]; activity: unknown[] };
          expect(issue.tags.length).toBeGreaterThan(0);
          expect(issue.activity.length).toBe(3);
        },
        { timeout: 5000, interval: 100 },
      );
      const exceptions = (await expectDocumented("get", `${PP}/exceptions`, `${base}/exceptions?issueId=${issueId}`, 200)) as { items: { id: string }[] };
      expect(exceptions.items.length).toBeGreaterThan(0);
      await expectDocumented("get", `${PP}/exceptions/{exceptionId}`, `${base}/exceptions/${exceptions.items[0].id}`, 200);
      const today = utcDay(new Date());
      await expectDocumented("get", `${PP}/exceptions/statistics/daily`, `${base}/exceptions/statistics/daily?from=${today}&to=${today}`, 200);
      const events = (await expectDocumented("get", `${PP}/events`, `${base}/events`, 200)) as { items: unknown[] };
      expect(events.items.length).toBeGreaterThan(0);
      await expectDocumented("get", "/openapi.json", "/openapi.json", 200);
    });

    it("for the deletion routes (202 with the deletion's id, then its progress)", async () => {
      const O = "/organizations/{orgId}";
      const org = `/organizations/${tenant.org.id}`;
      const erased = (await expectDocumented("post", `${O}/user-data/erase`, `${org}/user-data/erase`, 202, { email: "contract@example.test" })) as {
        deletionId: string;
      };
      await expectDocumented("get", `${O}/deletions/{deletionId}`, `${org}/deletions/${erased.deletionId}`, 200);
      const project = (await tenant.session.mutation("project.create", { name: "Contract doomed", platform: "NODE_JS" })).data as { id: string };
      await expectDocumented("delete", `${O}/projects/{projectId}`, `${org}/projects/${project.id}`, 202);
      await expectDocumented("get", `${O}/deletions`, `${org}/deletions`, 200);
      // A second organization of the tenant's owner, deleted whole; its progress is read by the requester, no member any more.
      const closing = await createOrganization(tenant.session, "Contract closing");
      const closed = (await expectDocumented("delete", O, `/organizations/${closing.id}`, 202)) as { deletionId: string };
      await expectDocumented("get", "/deletions/{deletionId}", `/deletions/${closed.deletionId}`, 200);
    });

    it("for the error answer of a documented 404", async () => {
      await expectDocumented("get", "/organizations/{orgId}/projects/{projectId}/issues/{issueId}", `${base}/issues/${crypto.randomUUID()}`, 404);
    });

    it("so a field added, dropped or retyped without its view fails", async () => {
      const path = "/organizations/{orgId}/projects/{projectId}/issues/{issueId}";
      const validator = documentedResponse(served, "get", path, 200);
      const { body: page } = await tenant.session.request(`/api/v1${base}/issues`);
      const { body: issue } = await tenant.session.request(`/api/v1${base}/issues/${page.items[0].id}`);
      expect(contractIssues(validator, issue)).toEqual([]);
      const { status: _status, ...withoutStatus } = issue;
      expect(contractIssues(validator, { ...issue, assignee: "someone" })).toEqual(['(root): Unrecognized key: "assignee"']);
      expect(contractIssues(validator, withoutStatus)).toEqual(['status: Invalid option: expected one of "OPEN"|"RESOLVED"|"IGNORED"']);
      expect(contractIssues(validator, { ...issue, lastSeen: 1_700_000_000_000 })).toEqual(["lastSeen: Invalid input: expected string, received number"]);
    });
  });
});
