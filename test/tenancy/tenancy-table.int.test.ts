import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRoutes, routeKey } from "../../src/server/rest/route-list";
import { REST_ROUTES } from "../../src/server/composition/rest-routes";
import { createV1Router } from "../../src/server/composition/v1.router";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { procedurePaths } from "../helpers/typed-trpc";
import { PROCEDURES, ROUTES } from "./tenancy-table";

describe("the tenancy table", () => {
  // The routes are registered over the app's real, full service set (registering calls none of them).
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  const registeredRoutes = () => listRoutes(createV1Router(server.services)).map(routeKey);

  it("has an entry for every tRPC procedure of appRouter, and none for a procedure that is gone", () => {
    const missing = procedurePaths().filter((path) => !(path in PROCEDURES));
    expect(missing, "procedures without a tenancy entry").toEqual([]);
    expect(Object.keys(PROCEDURES).sort()).toEqual(procedurePaths().sort());
  });

  it("has an entry for every route of the /api/v1 router, and none for a route that is gone", () => {
    const registered = registeredRoutes();
    expect(registered.length).toBeGreaterThanOrEqual(13);
    const missing = registered.filter((key) => !(key in ROUTES));
    expect(missing, "routes without a tenancy entry").toEqual([]);
    expect(Object.keys(ROUTES).sort()).toEqual(registered.sort());
  });

  it("names, for every route, the grant its definition declares (which the role matrix proves the service enforces)", () => {
    for (const route of REST_ROUTES) {
      const declared = "permission" in route ? route.permission : undefined;
      expect(declared, `permission of ${routeKey(route)}`).toEqual(ROUTES[routeKey(route)]?.requires);
    }
  });

  it("gives every write a body", () => {
    for (const [key, entry] of Object.entries(ROUTES)) if (!key.startsWith("get ")) expect(entry.body, `body for ${key}`).toBeTypeOf("function");
  });
});
