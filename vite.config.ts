import path from "node:path";
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";

const root = import.meta.dirname;
// Vitest runs server code only; the client plugins (route generation, React, Tailwind) are for builds.
const underTest = Boolean(process.env.VITEST);

/** Suites that drive Chromium or fetch the built client: only they need `npm run build` first. */
const BROWSER_SUITES = ["test/e2e/**/*.test.ts", "test/security/client-exposure.int.test.ts"];
/** Suites that start the server (or a tool) as a child process: start-up, signals, real `npm start`. */
const PROCESS_SUITES = [
  "test/chaos/**/*.test.ts",
  "test/secrets/key-rotation.int.test.ts",
  "test/startup/startup-messages.int.test.ts",
  "test/startup/replicas-migrate.int.test.ts",
  "test/scaling/read-replica.int.test.ts",
  "test/scaling/replicas-agree.int.test.ts",
  "test/retention/maintenance-command.int.test.ts",
  "test/ingest/quota-replicas.int.test.ts",
  "test/security/log-lines.int.test.ts",
  "test/security/outbox.int.test.ts",
  "test/security/mail-links.int.test.ts",
  "src/server/env.test.ts",
  "src/server/integrations/waf/waf-secrets.int.test.ts",
];

/** A path test for module ids (rolldown passes absolute paths; `[\\/]` keeps it working on Windows). */
const under = (pattern: string) => new RegExp(pattern.replaceAll("/", "[\\\\/]"));
const NODE_MODULES = under("/node_modules/");
const UI_LIBRARIES = under(
  "/node_modules/(@radix-ui|radix-ui|@floating-ui|react-remove-scroll[\\w.-]*|aria-hidden|tslib|use-callback-ref|use-sidecar|react-style-singleton|get-nonce|detect-node-es|lucide-react|tailwind-merge|class-variance-authority|clsx)/",
);
const CHART_MODULES = under("/node_modules/(recharts|d3-[\\w.-]+|victory-vendor)/|/src/client/components/charts/");
// A shared component that draws a chart: in the app group it would make every page load the charts.
const DRAWS_CHARTS = under("/src/client/components/occurrence-chart");

/**
 * How the client is cut into files (issue 37 item 13). The router plugin already gives each screen
 * its own chunk (autoCodeSplitting); left alone, the modules screens share became 70 small common
 * chunks, and the issues page's first load was 76 requests — on HTTP/1.1 each answer's headers
 * weighed more than most chunks compressed. These groups put what every page needs in a few
 * files, and keep the heavy parts of single screens (charts; the chat's markdown and AI SDK,
 * left to automatic chunking) out of them. Priorities: a module goes to the first group, by
 * priority, whose test it passes, with the modules it imports that no earlier group took.
 */
const CHUNK_GROUPS = [
  // Everything the entry imports statically from node_modules (React, the router, tRPC, zod, …).
  { name: "vendor", priority: 30, tags: ["$initial" as const], test: NODE_MODULES },
  // Radix, icons and the shadcn components: most screens use several. The toaster is lazy (lib/toast.ts).
  { name: "ui", priority: 20, test: (id: string) => (UI_LIBRARIES.test(id) || under("/src/client/components/ui/").test(id)) && !id.includes("sonner") },
  // The charts (recharts, ≈ 90 KB compressed): the dashboard, the issue and the exceptions screens only.
  { name: "charts", priority: 15, test: CHART_MODULES },
  // The app's own shared code, once three or more screens import it.
  {
    name: "app",
    priority: 10,
    minShareCount: 3,
    test: (id: string) => under("/src/(client/(lib|components)|shared)/").test(id) && !CHART_MODULES.test(id) && !DRAWS_CHARTS.test(id),
  },
];

export default defineConfig({
  root: path.join(root, "src/client"),
  publicDir: path.join(root, "public"),
  resolve: { alias: { "@": path.join(root, "src") } },
  plugins: underTest
    ? []
    : [
        tanstackRouter({
          target: "react",
          autoCodeSplitting: true,
          routesDirectory: path.join(root, "src/client/routes"),
          generatedRouteTree: path.join(root, "src/client/routeTree.gen.ts"),
        }),
        react(),
        tailwindcss(),
      ],
  build: {
    outDir: path.join(root, "dist/client"),
    emptyOutDir: true,
    rolldownOptions: { output: { codeSplitting: { groups: CHUNK_GROUPS } } },
    // The vendor chunk is ≈ 550 kB minified (≈ 145 kB brotli): every page needs all of it, once,
    // cached for a year. Vite's default warning (500 kB) is for bundles nobody has cut.
    chunkSizeWarningLimit: 700,
  },
  server: {
    fs: {
      // The dev server reads only what the client is built from; never the repository root, where
      // ./data keeps the database and the generated auth-secret (app.ts adds PGLITE_DATA_DIR).
      strict: true,
      allow: [path.join(root, "src/client"), path.join(root, "src/shared"), path.join(root, "node_modules")],
      deny: [".env", ".env.*", "*.{crt,pem,key}", "**/.git/**", "auth-secret", path.join(root, "data"), path.join(root, "data/**")],
    },
  },
  test: {
    root,
    // Integration suites share one database per worker; two cores do not gain from more forks.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Polls wait on a browser page or a background commit; 1 s (the default) is too tight on two
    // cores busy with a parallel suite (a page's first load alone has taken longer here).
    expect: { poll: { timeout: 10_000 } },
    // Four kinds of suite (docs/architecture.md, "Tests"): `vitest run --project database` runs one.
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // Pure suites share a worker's module cache instead of re-importing per file.
          isolate: false,
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", ...PROCESS_SUITES],
        },
      },
      {
        extends: true,
        test: {
          name: "database",
          // Suites share a worker's module cache and its PGlite (emptied between suites,
          // test/helpers/reused-pglite.ts): importing the server and starting PGlite cost 5–8 s a suite.
          isolate: false,
          include: ["src/**/*.int.test.ts", "test/**/*.int.test.ts"],
          exclude: [...BROWSER_SUITES, ...PROCESS_SUITES],
          globalSetup: ["test/setup/database-template.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          // As the database project, and one Chromium per worker (test/helpers/browser.ts).
          isolate: false,
          include: BROWSER_SUITES,
          globalSetup: ["test/setup/client-build.ts", "test/setup/database-template.ts"],
        },
      },
      {
        extends: true,
        test: { name: "process", include: PROCESS_SUITES, globalSetup: ["test/setup/database-template.ts"] },
      },
    ],
  },
});
