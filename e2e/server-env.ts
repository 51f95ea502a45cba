import { readFileSync } from "node:fs";
import pg from "pg";

/**
 * The e2e server's environment (DATABASE_URL, S3_*, AUTH_SECRET, ...), which scripts/e2e-server.ts
 * writes to E2E_SERVER_ENV_FILE (set by playwright.config.ts), for specs that seed rows no page
 * makes or look into storage.
 */
export function e2eServerEnv(): Record<string, string> {
  const file = process.env["E2E_SERVER_ENV_FILE"];
  if (!file) throw new Error("E2E_SERVER_ENV_FILE is not set: run the specs through playwright.config.ts");
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
}

/** A connection to the e2e server's database; the caller ends it. */
export async function e2eDatabase(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: e2eServerEnv()["DATABASE_URL"] });
  await client.connect();
  return client;
}
