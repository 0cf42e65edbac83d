/**
 * The profile-picture rule shared by server and client. Battery: real avatar URLs of the known
 * providers pass; http, other schemes, unknown hosts, look-alike hosts (suffix and prefix tricks,
 * bare wildcard parent), credentials, ports, IP literals, relative and malformed URLs fail; small
 * raster data: images pass, SVG and oversized ones fail; the CSP sources mirror the host list.
 */
import { describe, expect, it } from "vitest";
import { AVATAR_HOSTS, AvatarImageInput, AVATAR_IMAGE_MESSAGE, avatarImageSources, isAllowedAvatarUrl, MAX_DATA_IMAGE_LENGTH } from "./avatar";

describe("avatar URL rule", () => {
  it("accepts https pictures from the providers Faultline offers", () => {
    for (const url of [
      "https://lh3.googleusercontent.com/a/ACg8ocJ=s96-c",
      "https://avatars.githubusercontent.com/u/9919?v=4",
      "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
      "https://secure.gravatar.com/avatar/205e460b479e2e5b48aec07710c08d50?s=80&d=identicon",
      "https://pbs.twimg.com/profile_images/1/abc_normal.jpg",
      "https://LH4.GoogleUserContent.com/x",
    ]) {
      expect(isAllowedAvatarUrl(url), url).toBe(true);
    }
  });

  it("refuses everything else a browser would fetch", () => {
    for (const url of [
      "http://avatars.githubusercontent.com/u/1",
      "https://evil.example/pixel.gif",
      "https://avatars.githubusercontent.com.evil.example/u/1",
      "https://evilgoogleusercontent.com/a",
      "https://googleusercontent.com/a",
      "https://lh3.googleusercontent.com./a",
      "https://user:pass@avatars.githubusercontent.com/u/1",
      "https://avatars.githubusercontent.com:8443/u/1",
      "https://127.0.0.1/a.png",
      "https://[::1]/a.png",
      "//avatars.githubusercontent.com/u/1",
      "/avatars/me.png",
      "javascript:alert(1)",
      "ftp://avatars.githubusercontent.com/u/1",
      "",
      "not a url",
    ]) {
      expect(isAllowedAvatarUrl(url), url).toBe(false);
    }
  });

  it("accepts small raster data: images (Microsoft's photo) and refuses SVG or huge ones", () => {
    expect(isAllowedAvatarUrl("data:image/jpeg;base64, /9j/4AAQSkZJRg==")).toBe(true);
    expect(isAllowedAvatarUrl("data:image/png;base64,iVBORw0KGgo=")).toBe(true);
    expect(isAllowedAvatarUrl("data:image/svg+xml;base64,PHN2Zz4=")).toBe(false);
    expect(isAllowedAvatarUrl("data:text/html;base64,PGI+")).toBe(false);
    expect(isAllowedAvatarUrl(`data:image/png;base64,${"A".repeat(MAX_DATA_IMAGE_LENGTH)}`)).toBe(false);
  });

  it("is the profile form's rule, with one message", () => {
    expect(AvatarImageInput.safeParse("").success).toBe(true);
    expect(AvatarImageInput.safeParse("https://avatars.githubusercontent.com/u/1").success).toBe(true);
    const refused = AvatarImageInput.safeParse("http://evil.example/a.png");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.message)).toContain(AVATAR_IMAGE_MESSAGE);
  });

  it("gives the CSP one https source per distinct host", () => {
    const sources = avatarImageSources();
    expect(sources).toContain("https://*.googleusercontent.com");
    expect(sources).toContain("https://avatars.githubusercontent.com");
    expect(new Set(sources).size).toBe(sources.length);
    expect(sources.every((source) => /^https:\/\/(\*\.)?[a-z0-9.-]+$/.test(source))).toBe(true);
    expect(sources).toHaveLength(new Set(Object.values(AVATAR_HOSTS).flat()).size);
  });
});
