import { readFileSync } from "node:fs";
import { expect } from "@playwright/test";
import pg from "pg";

/** A connection to the e2e server's database. */
export async function e2eDatabase(): Promise<pg.Client> {
  const file = process.env["E2E_SERVER_ENV_FILE"];
  expect(file, "playwright.config.ts sets E2E_SERVER_ENV_FILE").toBeTruthy();
  const env = JSON.parse(readFileSync(file!, "utf8")) as { DATABASE_URL: string };
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  return client;
}
