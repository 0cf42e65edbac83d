import { describe, expect, it } from "vitest";
import { findSourceMappingUrl, resolveMapUrl, urlCandidates } from "./artifact-urls";

describe("urlCandidates", () => {
  it("try the URL as given, then its ~/ form, each without the query too", () => {
    expect(urlCandidates("https://cdn.example/a/b.js")).toEqual(["https://cdn.example/a/b.js", "~/a/b.js"]);
    expect(urlCandidates("https://cdn.example/a/b.js?v=2#x")).toEqual([
      "https://cdn.example/a/b.js?v=2#x",
      "https://cdn.example/a/b.js",
      "~/a/b.js?v=2#x",
      "~/a/b.js",
    ]);
    expect(urlCandidates("app:///dist/main.js")).toEqual(["app:///dist/main.js", "~/dist/main.js"]);
    expect(urlCandidates("/srv/app/dist/main.js")).toEqual(["/srv/app/dist/main.js", "~/srv/app/dist/main.js"]);
    expect(urlCandidates("~/a/b.js")).toEqual(["~/a/b.js"]);
  });
});

describe("resolveMapUrl", () => {
  it("resolve relative to the file's URL, keeping the ~/ form", () => {
    expect(resolveMapUrl("app.js.map", "~/assets/app.js")).toBe("~/assets/app.js.map");
    expect(resolveMapUrl("../maps/app.js.map", "https://cdn.example/assets/app.js")).toBe("https://cdn.example/maps/app.js.map");
    expect(resolveMapUrl("/maps/app.js.map", "~/assets/app.js")).toBe("~/maps/app.js.map");
    expect(resolveMapUrl("https://other.example/app.js.map", "~/assets/app.js")).toBe("https://other.example/app.js.map");
    expect(resolveMapUrl("main.js.map", "/srv/app/dist/main.js")).toBe("/srv/app/dist/main.js.map");
  });
});

describe("findSourceMappingUrl", () => {
  const find = (text: string) => findSourceMappingUrl(Buffer.from(text));

  it("take the last comment's URL, in any of its spellings", () => {
    expect(find("a();\n//# sourceMappingURL=app.js.map\n")).toEqual({ url: "app.js.map" });
    expect(find("a();\n//@ sourceMappingURL=old.js.map")).toEqual({ url: "old.js.map" });
    expect(find("a();\n/*# sourceMappingURL=style.css.map */")).toEqual({ url: "style.css.map" });
    expect(find("//# sourceMappingURL=first.map\nb();\n//# sourceMappingURL=last.map\n")).toEqual({ url: "last.map" });
  });

  it("skip the text in code, and answer null without a comment", () => {
    expect(find('//# sourceMappingURL=real.map\nconst s = "sourceMappingURL=fake.map";\n')).toEqual({ url: "real.map" });
    expect(find("a();\n")).toBeNull();
  });

  it("hand back an inline map's bytes", () => {
    const found = find("a();\n//# sourceMappingURL=data:application/json;base64,e30=\n");
    expect(found && "inline" in found && Buffer.from(found.inline).toString()).toBe("data:application/json;base64,e30=");
  });
});
