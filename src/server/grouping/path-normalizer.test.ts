import { describe, expect, it } from "vitest";
import { normalizeFramePath, normalizeFunction, normalizeModule } from "./path-normalizer";

describe("normalizeFramePath", () => {
  it.each([
    ["/app/src/users.js", "src/users.js"],
    ["/usr/src/app/dist/main.js", "dist/main.js"],
    ["file:///app/src/users.js", "src/users.js"],
    ["webpack:///./src/components/Button.tsx", "src/components/Button.tsx"],
    ["webpack://my-app/./src/x.js", "src/x.js"],
    ["app:///main.jsbundle", "main.jsbundle"],
    ["https://cdn.example.com/assets/index-CtWK0fHM.js?v=3#x", "assets/index.js"],
    ["https://cdn.example.com/static/js/main.3f2a1b9c.chunk.js", "static/js/main.chunk.js"],
    ["/srv/app/node_modules/.pnpm/express@4.19.2/node_modules/express/lib/router/layer.js", "node_modules/express/lib/router/layer.js"],
    ["/srv/app/node_modules/lodash/index.js", "node_modules/lodash/index.js"],
    ["/venv/lib/python3.11/site-packages/django/core/handlers/base.py", "site-packages/django/core/handlers/base.py"],
    ["/var/www/releases/20240101120000/src/x.php", "releases/src/x.php"],
    ["/opt/app/v2.3.1/lib/a.js", "opt/app/lib/a.js"],
    ["C:\\app\\src\\a.js", "C:/app/src/a.js"],
    ["node:internal/modules/run_main", "node:internal/modules/run_main"],
    ["generate.py", "generate.py"],
    ["src/user-controller.js", "src/user-controller.js"],
  ])("%s → %s", (input, output) => {
    expect(normalizeFramePath(input)).toBe(output);
  });
});

describe("normalizeModule / normalizeFunction", () => {
  it("drops versions and hashes from modules", () => {
    expect(normalizeModule("chunk-4XKZ7QJD")).toBe("chunk");
    expect(normalizeModule("lib@1.2.3")).toBe("lib");
    expect(normalizeModule("__main__")).toBe("__main__");
    expect(normalizeModule("generate")).toBe("generate");
  });

  it("drops call-site decorations from functions", () => {
    expect(normalizeFunction("async chargeCard")).toBe("chargeCard");
    expect(normalizeFunction("Layer.handle [as handle_request]")).toBe("Layer.handle");
    expect(normalizeFunction("new Foo")).toBe("Foo");
    expect(normalizeFunction("?")).toBe("");
    expect(normalizeFunction("<anonymous>")).toBe("");
    expect(normalizeFunction("<module>")).toBe("<module>");
  });
});
