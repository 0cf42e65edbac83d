import { describe, expect, it } from "vitest";
import { isNativePlatform, NATIVE_PLATFORMS, PLATFORM_LABELS, PLATFORMS } from "./platforms";

describe("platforms", () => {
  it("are the native SDKs' eight, then the other Sentry SDKs' platforms, then OTHER, each labelled", () => {
    expect(PLATFORMS).toEqual([
      ...["NODE_JS", "NEST_JS", "REACT", "NEXT_JS", "PYTHON", "JAVA", "REACT_NATIVE", "EXPO", "BROWSER_JS"],
      ...["ANDROID", "COCOA", "FLUTTER", "UNITY", "GO", "RUBY", "PHP", "DOTNET", "RUST", "ELIXIR", "C_CPP", "OTHER"],
    ]);
    expect(PLATFORMS.slice(0, NATIVE_PLATFORMS.length)).toEqual([...NATIVE_PLATFORMS]);
    expect(Object.keys(PLATFORM_LABELS)).toEqual([...PLATFORMS]);
  });

  it("tells the native SDKs' platforms from the others", () => {
    expect(PLATFORMS.filter(isNativePlatform)).toEqual([...NATIVE_PLATFORMS]);
    expect(["BROWSER_JS", "OTHER", "node_js", "constructor"].some(isNativePlatform)).toBe(false);
  });
});
