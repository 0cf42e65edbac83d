import { describe, expect, it } from "vitest";
import type { NormalizedFrame } from "../../shared/occurrence.types";
import { matchedFiles, pathSegments, pathsMatch, stackFiles } from "./suspect-commit-paths";

const frame = (fields: Partial<NormalizedFrame>): NormalizedFrame => ({
  filename: null,
  absPath: null,
  function: null,
  module: null,
  lineno: null,
  colno: null,
  inApp: false,
  contextLine: null,
  preContext: [],
  postContext: [],
  ...fields,
});

describe("suspect commit paths", () => {
  it("strips bundler and SDK prefixes, query strings and ./", () => {
    expect(pathSegments("app:///static/js/main.js?v=3#x")).toEqual(["static", "js", "main.js"]);
    expect(pathSegments("webpack:///./src/cart/checkout.ts")).toEqual(["src", "cart", "checkout.ts"]);
    expect(pathSegments("https://cdn.example.com/assets/app.js")).toEqual(["assets", "app.js"]);
    expect(pathSegments("C:\\work\\shop\\src\\cart.ts")).toEqual(["C:", "work", "shop", "src", "cart.ts"]);
    expect(pathSegments("~/lib/x.js")).toEqual(["lib", "x.js"]);
  });

  it("matches a tail on whole segments, either way round", () => {
    expect(pathsMatch("/srv/shop/src/cart/checkout.ts", "src/cart/checkout.ts")).toBe(true);
    expect(pathsMatch("app:///static/js/main.js", "web/static/js/main.js")).toBe(true);
    expect(pathsMatch("webpack:///./src/cart/checkout.ts", "src/cart/checkout.ts")).toBe(true);
    expect(pathsMatch("../../src/cart/checkout.ts", "packages/web/src/cart/checkout.ts")).toBe(true);
  });

  it("never matches part of a segment or a different directory", () => {
    expect(pathsMatch("app.js", "src/myapp.js")).toBe(false);
    expect(pathsMatch("/srv/shop/src/cart/checkout.ts", "src/xcart/checkout.ts")).toBe(false);
    expect(pathsMatch("src/cart/checkout.ts", "lib/cart/checkout.ts")).toBe(false);
    expect(pathsMatch("", "src/a.ts")).toBe(false);
  });

  it("reads in-app frames' files, all frames when none is in-app", () => {
    const frames = [frame({ absPath: "/srv/node_modules/express/index.js" }), frame({ filename: "src/a.ts", absPath: "/srv/src/a.ts", inApp: true })];
    expect(stackFiles({ exceptions: [{ type: "E", value: null, module: null, mechanism: null, frames }] })).toEqual(["/srv/src/a.ts", "src/a.ts"]);
    expect(stackFiles({ stacktrace: [frame({ filename: "lib/b.ts" })] })).toEqual(["lib/b.ts"]);
    expect(matchedFiles(["/srv/src/a.ts"], ["src/a.ts", "src/b.ts", "README.md"])).toEqual(["src/a.ts"]);
  });
});
