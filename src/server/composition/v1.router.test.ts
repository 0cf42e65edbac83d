import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import type { AppServices } from "../context";
import { listRoutes, routeKey } from "../rest/route-list";
import { REST_ROUTES } from "./rest-routes";
import { createV1Router } from "./v1.router";

/** A URL of the route's own shape: each parameter replaced by a value no static segment has. */
const urlOf = (path: string) => path.replace(/:(\w+)/g, (_match, name: string) => `${name}-value`);

describe("the v1 router", () => {
  // Registering routes touches no service; only the project routes read the API URL.
  const registered = listRoutes(createV1Router({ env: { API_URL: "http://localhost" } } as unknown as AppServices));

  it("registers every route definition served on /api/v1, once", () => {
    const served = REST_ROUTES.filter((route) => !("mountedBeforeJson" in route)).map(routeKey);
    expect(registered.map(routeKey).sort()).toEqual([...served].sort());
    expect(new Set(registered.map(routeKey)).size).toBe(registered.length);
  });

  it("reaches every route with a URL of its own shape: no route is shadowed by one registered before it", async () => {
    // The real paths in the router's order, each answering its own key.
    const app = express();
    for (const route of registered) app[route.method as "get"](route.path, (_req, res) => void res.json(routeKey(route)));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const route of registered) {
        const response = await fetch(`${base}${urlOf(route.path)}`, { method: route.method.toUpperCase() });
        expect(await response.json(), routeKey(route)).toBe(routeKey(route));
      }
    } finally {
      server.close();
    }
  });
});
