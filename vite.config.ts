import path from "node:path";
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";

const root = import.meta.dirname;
// Vitest runs server code only; the client plugins (route generation, React, Tailwind) are for builds.
const underTest = Boolean(process.env.VITEST);

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
  build: { outDir: path.join(root, "dist/client"), emptyOutDir: true },
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
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Integration suites share one database per worker; two cores do not gain from more forks.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Polls wait on a browser page or a background commit; 1 s (the default) is too tight on two
    // cores busy with a parallel suite (a page's first load alone has taken longer here).
    expect: { poll: { timeout: 10_000 } },
  },
});
