import type pg from "pg";
import { withDb } from "./files-support";

// What the product recorded (events, answers, files), read from the e2e server's database.
export async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  return withDb(async (client) => (await client.query<T>(sql, params)).rows);
}
