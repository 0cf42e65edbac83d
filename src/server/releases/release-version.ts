/**
 * Sentry's rule for a release version, for versions ingest meets in events and sessions and for
 * the Sentry tool API's input (sentry-api/sentry-releases.ts): at most 200
 * characters, no slash or line break or tab, no leading or trailing space, not `.`, `..` or `latest`.
 */
export function isReleaseVersion(version: string): boolean {
  return (
    version.length > 0 &&
    version.length <= MAX_RELEASE_VERSION &&
    !/[/\r\n\t\f\v]/.test(version) &&
    version.trim() === version &&
    version !== "." &&
    version !== ".." &&
    version !== "latest"
  );
}

export const MAX_RELEASE_VERSION = 200;
