import { describe, expect, it } from "vitest";
import { isProjectSlug, ProjectSlug, slugFromName, uniqueSlug } from "./project-slug";

describe("project slugs", () => {
  it("derives a slug from a name", () => {
    expect(slugFromName("My Web App")).toBe("my-web-app");
    expect(slugFromName("  Café -- Crème!! ")).toBe("cafe-creme");
    expect(slugFromName("日本語")).toBe("project");
    expect(slugFromName("2024")).toBe("project-2024");
    expect(slugFromName("a".repeat(80))).toBe("a".repeat(50));
    expect(slugFromName(`${"a".repeat(49)} b`)).toBe("a".repeat(49));
  });

  it("numbers collisions, keeping 50 characters", () => {
    expect(uniqueSlug("web", new Set())).toBe("web");
    expect(uniqueSlug("web", new Set(["web", "web-2"]))).toBe("web-3");
    const long = "a".repeat(50);
    expect(uniqueSlug(long, new Set([long]))).toBe(`${"a".repeat(48)}-2`);
  });

  it("accepts only lowercase letters, digits and single dashes, never only digits", () => {
    expect(isProjectSlug("web-app-2")).toBe(true);
    for (const bad of ["", "Web", "web--app", "-web", "web-", "42", "web_app", "a".repeat(51)]) expect(isProjectSlug(bad), bad).toBe(false);
    expect(ProjectSlug.parse("  Web-App ")).toBe("web-app");
  });
});
