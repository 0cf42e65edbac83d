import { describe, expect, it } from "vitest";
import { listRoutes, routeKey } from "../../src/server/rest/route-list";
import { createV1Router } from "../../src/server/rest/v1.router";
import type { AppServices } from "../../src/server/context";
import { procedurePaths } from "../helpers/typed-trpc";
import { PROCEDURES, ROUTES } from "./tenancy-table";

// Registering routes touches no service; only the project routes read the API URL.
const registeredRoutes = () => listRoutes(createV1Router({ env: { API_URL: "http://localhost" } } as unknown as AppServices)).map(routeKey);

describe("the tenancy table", () => {
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

  it("gives every write a body", () => {
    for (const [key, entry] of Object.entries(ROUTES)) if (!key.startsWith("get ")) expect(entry.body, `body for ${key}`).toBeTypeOf("function");
  });
});
