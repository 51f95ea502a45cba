/**
 * The migration tooling against a real PostgreSQL: the test run's server (only its host and
 * credentials are used; each run makes and drops its own database).
 */
import { createHash, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { applyMigrations, diffSchemas, listMigrationNames, MIGRATION_FILE, MIGRATIONS_DIR, quoteIdentifier, SCHEMA_PATH } from "./schema-engine.ts";

const serverUrl = new URL(process.env["DATABASE_URL"] ?? "postgresql://postgres@127.0.0.1:5432/postgres");

function urlFor(database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  url.search = "";
  return url.toString();
}

async function withClient<T>(database: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlFor(database) });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Table name of every model: the model's name unless it says @@map("..."). */
function modelTables(schema: string): string[] {
  return [...schema.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)].map(
    ([, model, body]) => /@@map\(\s*(?:name:\s*)?"([^"]+)"/.exec(body ?? "")?.[1] ?? model ?? "",
  );
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

describe("applyMigrations", () => {
  const database = `cp_migrate_test_${randomUUID().replaceAll("-", "").slice(0, 12)}`;

  const readRows = (): Promise<MigrationRow[]> =>
    withClient(database, async (client) => {
      const result = await client.query<MigrationRow>(
        `SELECT migration_name, checksum, finished_at, rolled_back_at
         FROM _prisma_migrations ORDER BY migration_name`,
      );
      return result.rows;
    });

  beforeAll(async () => {
    // The database doesn't exist yet: applyMigrations creating it is tested too.
    const first = await applyMigrations(urlFor(database));
    expect(first.applied).toEqual(await listMigrationNames(MIGRATIONS_DIR));
  }, 60_000);

  afterAll(async () => {
    await withClient("postgres", (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(database)} WITH (FORCE)`));
  }, 60_000);

  it("has migrations to test", async () => {
    expect((await listMigrationNames(MIGRATIONS_DIR)).length).toBeGreaterThan(0);
  });

  it("creates a table for every model of prisma/schema.prisma", async () => {
    const expected = modelTables(await readFile(SCHEMA_PATH, "utf8"));
    expect(expected.length).toBeGreaterThan(0);
    const actual = await withClient(database, async (client) => {
      const result = await client.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
      );
      return result.rows.map((row) => row.table_name);
    });
    expect(actual).toEqual(expect.arrayContaining(expected));
  });

  it("records each migration in _prisma_migrations as migrate deploy does", async () => {
    const names = await listMigrationNames(MIGRATIONS_DIR);
    const rows = await readRows();
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    for (const row of rows) {
      const script = await readFile(path.join(MIGRATIONS_DIR, row.migration_name, MIGRATION_FILE));
      expect(row.finished_at, row.migration_name).toBeInstanceOf(Date);
      expect(row.rolled_back_at, row.migration_name).toBeNull();
      // Prisma's checksum: sha256 of migration.sql, lowercase hex.
      expect(row.checksum, row.migration_name).toBe(createHash("sha256").update(script).digest("hex"));
    }
  });

  it("is a no-op the second time", async () => {
    const before = await readRows();
    const second = await applyMigrations(urlFor(database));
    expect(second.applied).toEqual([]);
    expect(await readRows()).toEqual(before);
  }, 60_000);
});

describe("diffSchemas", () => {
  const header = 'datasource db {\n  provider = "postgresql"\n}\n';
  const v1 = `${header}
model User {
  id   Int    @id @default(autoincrement())
  name String
}
`;
  const v2 = `${header}
model User {
  id    Int     @id @default(autoincrement())
  name  String
  email String? @unique
  posts Post[]
}

model Post {
  id       Int  @id @default(autoincrement())
  authorId Int
  author   User @relation(fields: [authorId], references: [id])
}
`;

  it("creates tables from nothing", async () => {
    const sql = await diffSchemas(null, v1);
    expect(sql).toMatch(/CREATE TABLE "User"/);
    // A first migration shouldn't try to create the public schema (the engine's "empty" target would).
    expect(sql).not.toMatch(/CREATE SCHEMA/);
  }, 60_000);

  it("alters tables from one schema to the next", async () => {
    const sql = await diffSchemas(v1, v2);
    expect(sql).toMatch(/ALTER TABLE "User" ADD COLUMN\s+"email" TEXT/);
    expect(sql).toMatch(/CREATE TABLE "Post"/);
    expect(sql).toMatch(/CREATE UNIQUE INDEX "User_email_key"/);
    expect(sql).toMatch(/ALTER TABLE "Post" ADD CONSTRAINT "Post_authorId_fkey" FOREIGN KEY/);
    expect(sql).not.toMatch(/CREATE TABLE "User"/);
  }, 60_000);

  it("returns an empty string when nothing changed", async () => {
    expect(await diffSchemas(v2, v2)).toBe("");
  }, 60_000);

  it("reports schema errors", async () => {
    await expect(diffSchemas(null, `${header}\nmodel Broken {\n  id Nope @id\n}\n`)).rejects.toThrow(/Nope/);
  }, 60_000);
});
