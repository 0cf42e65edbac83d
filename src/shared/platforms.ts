/** The platforms the native `@traque/*` SDKs declare (docs/ingest-protocol.md §2); ingest accepts only these there. */
export const NATIVE_PLATFORMS = ["NODE_JS", "NEST_JS", "REACT", "NEXT_JS", "PYTHON", "JAVA", "REACT_NATIVE", "EXPO"] as const;
export type NativePlatform = (typeof NATIVE_PLATFORMS)[number];

/**
 * Project platforms: the native SDKs' enumeration, then the rest the Sentry SDKs cover (issue 37,
 * item 12), then OTHER. Stored as text (projects.platform), so a new value needs no migration; the
 * client's setup snippets are a Record over this list, so a new value needs its snippet to compile.
 */
export const PLATFORMS = [
  ...NATIVE_PLATFORMS,
  "BROWSER_JS",
  "ANDROID",
  "COCOA",
  "FLUTTER",
  "UNITY",
  "GO",
  "RUBY",
  "PHP",
  "DOTNET",
  "RUST",
  "ELIXIR",
  "C_CPP",
  "OTHER",
] as const;
export type Platform = (typeof PLATFORMS)[number];

export const PLATFORM_LABELS: Record<Platform, string> = {
  NODE_JS: "Node.js",
  NEST_JS: "NestJS",
  REACT: "React",
  NEXT_JS: "Next.js",
  PYTHON: "Python",
  JAVA: "Java",
  REACT_NATIVE: "React Native",
  EXPO: "Expo",
  BROWSER_JS: "Browser JavaScript",
  ANDROID: "Android",
  COCOA: "Apple (Swift, Objective-C)",
  FLUTTER: "Flutter / Dart",
  UNITY: "Unity",
  GO: "Go",
  RUBY: "Ruby",
  PHP: "PHP",
  DOTNET: ".NET",
  RUST: "Rust",
  ELIXIR: "Elixir",
  C_CPP: "C / C++",
  OTHER: "Other",
};

export function isNativePlatform(platform: string): platform is NativePlatform {
  return (NATIVE_PLATFORMS as readonly string[]).includes(platform);
}
