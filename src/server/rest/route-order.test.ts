import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { bySpecificity, inMatchOrder } from "./route-order";

/** Registers the routes in the given order on a loopback server; each answers its own path. */
async function answererOf<R extends { path: string }>(routes: R[], url: string) {
  const app = express();
  for (const route of routes) app.get(route.path, (_req, res) => void res.json(route.path));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${url}`);
    return (await response.json()) as string;
  } finally {
    server.close();
  }
}

describe("route order by specificity", () => {
  const declared = [{ path: "/issues/:issueId" }, { path: "/issues/merge" }, { path: "/issues" }];

  it("would let a parameter shadow a static path registered after it (why the order matters)", async () => {
    expect(await answererOf(declared, "/issues/merge")).toBe("/issues/:issueId");
  });

  it("registers the static path first, so the more specific route answers its URL", async () => {
    const ordered = inMatchOrder(declared);
    expect(ordered.map((route) => route.path)).toEqual(["/issues", "/issues/merge", "/issues/:issueId"]);
    expect(await answererOf(ordered, "/issues/merge")).toBe("/issues/merge");
    expect(await answererOf(ordered, "/issues/42")).toBe("/issues/:issueId");
  });

  it("puts a static segment before a parameter at the first position where paths differ, whatever follows", () => {
    const paths = ["/ai/agents/:projectId/chat", "/ai/agents/conversations/:id", "/ai/agents/conversations", "/a/:x/z", "/a/b"];
    expect(
      [...paths]
        .map((path) => ({ path }))
        .sort(bySpecificity)
        .map((route) => route.path),
    ).toEqual(["/a/b", "/a/:x/z", "/ai/agents/conversations", "/ai/agents/conversations/:id", "/ai/agents/:projectId/chat"]);
  });

  it("keeps the declared order of routes of the same shape (a stable sort)", () => {
    const routes = [
      { path: "/p/:id", method: "put" },
      { path: "/p/:other", method: "get" },
      { path: "/p/:id", method: "delete" },
    ];
    expect(inMatchOrder(routes).map((route) => route.method)).toEqual(["put", "get", "delete"]);
  });
});
