import { describe, expect, it } from "vitest";
import {
  debugIdUploadSnippet,
  esbuildPluginSnippet,
  groupByRelease,
  releaseUploadSnippet,
  serverOrigin,
  shellWord,
  vitePluginSnippet,
  webpackPluginSnippet,
} from "./-source-map-snippets";

const target = { origin: "https://faultline.example.com", organizationSlug: "map-makers", projectSlug: "web-shop" };

describe("source-map upload snippets", () => {
  it("fill in the server, organization and project for sentry-cli, with a token placeholder", () => {
    const snippet = debugIdUploadSnippet(target);
    expect(snippet).toContain(
      "export SENTRY_URL=https://faultline.example.com\nexport SENTRY_ORG=map-makers\nexport SENTRY_PROJECT=web-shop\nexport SENTRY_AUTH_TOKEN=flt_YOUR_TOKEN",
    );
    expect(snippet).toContain("npx @sentry/cli sourcemaps inject ./dist && npx @sentry/cli sourcemaps upload ./dist");
    expect(releaseUploadSnippet(target)).toContain("npx @sentry/cli sourcemaps upload --release 1.4.0 --url-prefix '~/assets' ./dist");
    expect(releaseUploadSnippet(target)).toContain("export SENTRY_PROJECT=web-shop\n");
  });

  it("give the Vite plugin the same values as string literals, the token from the environment", () => {
    const snippet = vitePluginSnippet({ ...target, organizationSlug: 'o"dd' });
    expect(snippet).toContain('url: "https://faultline.example.com",');
    expect(snippet).toContain('org: "o\\"dd",');
    expect(snippet).toContain('project: "web-shop",');
    expect(snippet).toContain("authToken: process.env.SENTRY_AUTH_TOKEN,");
  });

  it("give the webpack and esbuild plugins the same options, with the settings each needs to write maps", () => {
    for (const [snippet, needs] of [
      [webpackPluginSnippet(target), 'devtool: "source-map"'],
      [esbuildPluginSnippet(target), "sourcemap: true"],
    ] as const) {
      expect(snippet).toContain(needs);
      expect(snippet).toContain(
        '      url: "https://faultline.example.com",\n      org: "map-makers",\n      project: "web-shop",\n      authToken: process.env.SENTRY_AUTH_TOKEN,',
      );
    }
    expect(webpackPluginSnippet(target)).toContain('require("@sentry/webpack-plugin")');
    expect(esbuildPluginSnippet(target)).toContain('import { sentryEsbuildPlugin } from "@sentry/esbuild-plugin";');
  });

  it("quote a shell word only when the shell would read it", () => {
    expect(shellWord("http://127.0.0.1:4000")).toBe("http://127.0.0.1:4000");
    expect(shellWord("acme co")).toBe("'acme co'");
    expect(shellWord("it's;rm")).toBe("'it'\\''s;rm'");
    expect(debugIdUploadSnippet({ ...target, organizationSlug: "$(id)" })).toContain("export SENTRY_ORG='$(id)'\n");
  });

  it("take the server origin from the DSN, else the page's", () => {
    expect(serverOrigin("https://abc@api.example.com:8443/7", "https://app.example.com")).toBe("https://api.example.com:8443");
    expect(serverOrigin(null, "https://app.example.com")).toBe("https://app.example.com");
  });
});

describe("groupByRelease", () => {
  it("keeps a release's bundles of one dist together in the list's order, bundles without a release last", () => {
    const bundle = (id: string, release: string | null, dist: string | null = null) => ({ id, release, dist });
    const groups = groupByRelease([bundle("a", null), bundle("b", "2.0"), bundle("c", "1.0"), bundle("d", "2.0"), bundle("e", "2.0", "ios")]);
    expect(groups.map((group) => [group.release, group.dist, group.bundles.map((item) => item.id).join("")])).toEqual([
      ["2.0", null, "bd"],
      ["1.0", null, "c"],
      ["2.0", "ios", "e"],
      [null, null, "a"],
    ]);
  });
});
