import type { Router } from "express";

export interface RegisteredRoute {
  method: string;
  /** Express syntax, relative to the router walked. */
  path: string;
}

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  slash?: boolean;
  rawPath?: string;
}

/** Every method + path registered on an Express router, nested routers included (the tenancy matrix and OpenAPI test read this). */
export function listRoutes(router: Router, prefix = ""): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  for (const layer of (router as unknown as { stack: Layer[] }).stack) {
    if (layer.route) {
      for (const [method, enabled] of Object.entries(layer.route.methods))
        if (enabled && method !== "_all") routes.push({ method, path: prefix + layer.route.path });
    } else if (layer.handle?.stack) {
      routes.push(...listRoutes(layer.handle as unknown as Router, prefix + (layer.slash ? "" : (layer.rawPath ?? ""))));
    }
  }
  return routes;
}

/** `get /organizations/:orgId/projects`: how the tenancy table and the OpenAPI test name a route. */
export const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
