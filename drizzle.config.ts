import { defineConfig } from "drizzle-kit";

/** `npx drizzle-kit generate` writes the app store's SQL migrations from its schema (applied at start). */
export default defineConfig({
  dialect: "postgresql",
  schema: "./api/store/schema.ts",
  out: "./api/store/migrations",
  schemaFilter: ["app"],
});
