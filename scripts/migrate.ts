/**
 * `npm run db:migrate`: our `prisma migrate deploy` (see scripts/lib/schema-engine.ts for why it
 * isn't the CLI). Applies pending migrations from prisma/migrations to DATABASE_URL, creating the
 * database if it doesn't exist yet.
 */
import { applyMigrations } from "./lib/schema-engine.ts";

async function main(): Promise<number> {
  const databaseUrl = process.env["DATABASE_URL"];
  if (!databaseUrl) {
    console.error("db:migrate: DATABASE_URL is not set. Example: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/portals npm run db:migrate");
    return 1;
  }

  const { applied } = await applyMigrations(databaseUrl, {
    onLog: (entry) => {
      if (entry.message.startsWith("Applying ")) console.log(entry.message);
    },
  });
  if (applied.length === 0) {
    console.log("No pending migrations.");
  } else {
    console.log(`Applied ${applied.length} migration(s):`);
    for (const name of applied) console.log(`  ${name}`);
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const code = typeof error === "object" && error !== null && "code" in error ? ` [${String(error.code)}]` : "";
    console.error(`db:migrate failed${code}: ${message}`);
    process.exitCode = 1;
  },
);
