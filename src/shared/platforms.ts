/** Project platforms; the first eight are the native SDK's enumeration, the rest cover Sentry SDKs. */
export const PLATFORMS = ["NODE_JS", "NEST_JS", "REACT", "NEXT_JS", "PYTHON", "JAVA", "REACT_NATIVE", "EXPO", "BROWSER_JS", "OTHER"] as const;
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
  OTHER: "Other",
};
