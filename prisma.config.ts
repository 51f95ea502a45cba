/**
 * Prisma 7 CLI configuration. In this repo the CLI is only used for `prisma generate`
 * (npm run db:generate); migrations run through scripts/migrate.ts and scripts/migration.ts,
 * which read the same paths but not this file.
 */
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  // Not `env("DATABASE_URL")`: that throws when the variable is unset, and generate (which runs
  // in builds without a database) must not need it.
  datasource: { url: process.env["DATABASE_URL"] },
});
