import { readFileSync } from "node:fs";
import pg from "pg";
import { serverEnvFile } from "./server-env";

// The e2e server's database (scripts/e2e-server.ts writes its environment to serverEnvFile), for
// specs that check what the product recorded (events, answers) beside what the page shows.

export async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const env = JSON.parse(readFileSync(serverEnvFile(Number(process.env["E2E_PORT"] ?? 3100)), "utf8")) as { DATABASE_URL: string };
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
