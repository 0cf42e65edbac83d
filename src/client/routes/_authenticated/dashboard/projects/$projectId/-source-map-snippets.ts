/**
 * The upload instructions of the "Source maps" settings section, filled in for one project: what
 * the unchanged sentry-cli and the Sentry bundler plugins (Vite, webpack, esbuild) need to reach this server (docs/sentry-tool-api.md).
 * The token is never known here (only its hash is kept), so the snippets name a placeholder.
 */
export interface UploadTarget {
  /** This server's origin, as SENTRY_URL: sentry-cli appends /api/0/ itself. */
  origin: string;
  organizationSlug: string;
  projectSlug: string;
}

export const TOKEN_PLACEHOLDER = "flt_YOUR_TOKEN";

/** The server the DSN points at (built from the configured API URL), else the page's own origin. */
export function serverOrigin(dsn: string | null, fallback: string): string {
  if (!dsn) return fallback;
  const url = new URL(dsn);
  return `${url.protocol}//${url.host}`;
}

/** A word for a POSIX shell: bare when it holds nothing the shell reads, else single-quoted. */
export function shellWord(value: string): string {
  if (/^[A-Za-z0-9_./:@%+=,-]+$/.test(value)) return value;
  return `'${value.replaceAll("'", "'\\''")}'`;
}

function exportLine({ origin, organizationSlug, projectSlug }: UploadTarget): string {
  return `export SENTRY_URL=${shellWord(origin)}
export SENTRY_ORG=${shellWord(organizationSlug)}
export SENTRY_PROJECT=${shellWord(projectSlug)}
export SENTRY_AUTH_TOKEN=${TOKEN_PLACEHOLDER}  # an API token with the project:releases scope`;
}

/** Debug ids: inject them into the built files, then upload; no release to keep in step. */
export function debugIdUploadSnippet(target: UploadTarget): string {
  return `${exportLine(target)}

# after every build, on the directory it wrote
npx @sentry/cli sourcemaps inject ./dist && npx @sentry/cli sourcemaps upload ./dist`;
}

/** Without debug ids: the maps are found by the event's release and the file's URL. */
export function releaseUploadSnippet(target: UploadTarget): string {
  return `${exportLine(target)}

# the release must be the one your SDK sends: Sentry.init({ release: "1.4.0" })
# --url-prefix: where the files are served, "~" standing for any origin
npx @sentry/cli sourcemaps upload --release 1.4.0 --url-prefix '~/assets' ./dist`;
}

export function vitePluginSnippet(target: UploadTarget): string {
  return `npm install --save-dev @sentry/vite-plugin

// vite.config.ts
import { defineConfig } from "vite";
import { sentryVitePlugin } from "@sentry/vite-plugin";

export default defineConfig({
  build: { sourcemap: true },
  plugins: [
    // After the other plugins: it injects debug ids and uploads the maps of every build.
    sentryVitePlugin({
${pluginOptions(target, "      ")}
    }),
  ],
});`;
}

/** The plugin's options, as every Sentry bundler plugin takes them. */
function pluginOptions({ origin, organizationSlug, projectSlug }: UploadTarget, indent: string): string {
  return [
    `url: ${JSON.stringify(origin)},`,
    `org: ${JSON.stringify(organizationSlug)},`,
    `project: ${JSON.stringify(projectSlug)},`,
    "authToken: process.env.SENTRY_AUTH_TOKEN,",
  ]
    .map((line) => `${indent}${line}`)
    .join("\n");
}

export function webpackPluginSnippet(target: UploadTarget): string {
  return `npm install --save-dev @sentry/webpack-plugin

// webpack.config.js
const { sentryWebpackPlugin } = require("@sentry/webpack-plugin");

module.exports = {
  devtool: "source-map",
  plugins: [
    // Injects debug ids and uploads the maps of every production build.
    sentryWebpackPlugin({
${pluginOptions(target, "      ")}
    }),
  ],
};`;
}

export function esbuildPluginSnippet(target: UploadTarget): string {
  return `npm install --save-dev @sentry/esbuild-plugin

// build.mjs
import { build } from "esbuild";
import { sentryEsbuildPlugin } from "@sentry/esbuild-plugin";

await build({
  entryPoints: ["src/index.ts"],
  bundle: true,
  minify: true,
  sourcemap: true,
  outdir: "dist",
  plugins: [
    // Last: it injects debug ids and uploads the maps esbuild wrote.
    sentryEsbuildPlugin({
${pluginOptions(target, "      ")}
    }),
  ],
});`;
}

/** Bundles of one release and dist together, in the order the list answered (newest first); bundles without a release last. */
export function groupByRelease<T extends { release: string | null; dist: string | null }>(bundles: readonly T[]) {
  const groups = new Map<string, { release: string | null; dist: string | null; bundles: T[] }>();
  for (const bundle of bundles) {
    const key = JSON.stringify([bundle.release, bundle.dist]);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { release: bundle.release, dist: bundle.dist, bundles: [] }));
    group.bundles.push(bundle);
  }
  const all = [...groups.values()];
  return [...all.filter((group) => group.release !== null), ...all.filter((group) => group.release === null)];
}
