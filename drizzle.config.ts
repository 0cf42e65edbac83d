import { defineConfig } from "drizzle-kit";

// Migrations are generated once from the schema and applied at start-up on PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/server/db/schema/index.ts",
  out: "./drizzle",
});
