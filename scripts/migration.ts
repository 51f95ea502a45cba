/**
 * `npm run db:migration -- <name>`: our `prisma migrate dev --create-only`, without a database.
 *
 * The new migration is the diff between prisma/schema.prisma and the schema snapshot stored with
 * the latest migration (prisma/migrations/<dir>/schema.prisma.snapshot; why that name and place:
 * see scripts/lib/schema-engine.ts). Diffing schema text against schema text keeps this offline
 * and deterministic; the cost is that hand-edited migration.sql files are invisible to it, so an
 * edit that changes the resulting database should be mirrored in prisma/schema.prisma.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

import {
  diffSchemas,
  listMigrationNames,
  LOCKFILE_CONTENT,
  LOCKFILE_NAME,
  MIGRATION_FILE,
  MIGRATIONS_DIR,
  SCHEMA_PATH,
  SNAPSHOT_FILE,
} from "./lib/schema-engine.ts";

const NAME_PATTERN = /^[a-z0-9_]+$/;
// _prisma_migrations.migration_name is VARCHAR(255) and the timestamp prefix takes 15.
const MAX_NAME_LENGTH = 200;

class UsageError extends Error {}

function parseName(args: string[]): string {
  const [name, ...rest] = args;
  if (!name || rest.length > 0) {
    throw new UsageError("Usage: npm run db:migration -- <name>   (e.g. add_invoice_due_date)");
  }
  if (!NAME_PATTERN.test(name) || name.length > MAX_NAME_LENGTH) {
    throw new UsageError(`Invalid migration name "${name}": use lowercase letters, digits and underscores (at most ${MAX_NAME_LENGTH}).`);
  }
  return name;
}

/** UTC YYYYMMDDHHMMSS, like Prisma; nudged forward so the new one always sorts last. */
function nextTimestamp(existing: string[]): string {
  const format = (date: Date): string => date.toISOString().replace(/\D/g, "").slice(0, 14);
  let date = new Date();
  const latest = existing.at(-1)?.slice(0, 14);
  if (latest && /^\d{14}$/.test(latest) && format(date) <= latest) {
    const parsed = latest.replace(/^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/, "$1-$2-$3T$4:$5:$6Z");
    date = new Date(Date.parse(parsed) + 1000);
  }
  return format(date);
}

async function main(): Promise<void> {
  const name = parseName(process.argv.slice(2));
  const schema = await readFile(SCHEMA_PATH, "utf8");
  const existing = await listMigrationNames(MIGRATIONS_DIR);
  const previous = existing.at(-1);

  let fromSchema: string | null = null;
  if (previous) {
    const snapshotPath = path.join(MIGRATIONS_DIR, previous, SNAPSHOT_FILE);
    if (!existsSync(snapshotPath)) {
      throw new UsageError(
        `The latest migration ${previous} has no ${SNAPSHOT_FILE}, so there is nothing to diff against. ` +
          `Save the schema that migration corresponds to as ${path.relative(process.cwd(), snapshotPath)} and retry.`,
      );
    }
    fromSchema = await readFile(snapshotPath, "utf8");
  }

  const script = await diffSchemas(fromSchema, schema);
  if (script === "") {
    console.log(`No changes: prisma/schema.prisma matches ${previous ?? "an empty database"}. Nothing written.`);
    return;
  }

  const dirName = `${nextTimestamp(existing)}_${name}`;
  const dir = path.join(MIGRATIONS_DIR, dirName);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, MIGRATION_FILE), script);
  await writeFile(path.join(dir, SNAPSHOT_FILE), schema);
  const lockfile = path.join(MIGRATIONS_DIR, LOCKFILE_NAME);
  if (!existsSync(lockfile)) await writeFile(lockfile, LOCKFILE_CONTENT);

  console.log(`Created prisma/migrations/${dirName}/${MIGRATION_FILE}`);
  const risky = riskyStatements(script);
  if (risky.length > 0) {
    console.log("\nThese statements can lose data or fail on a non-empty table:");
    for (const line of risky) console.log(`  ${line}`);
  }
  console.log("Review it, then apply with: npm run db:migrate");
}

/**
 * `prisma migrate dev` warns about data loss by asking the live database; we have none, so flag
 * the statement shapes that can lose data or fail when rows exist, and let a human judge.
 */
function riskyStatements(script: string): string[] {
  return script
    .split("\n")
    .map((line) => line.trim())
    .filter(
      (line) =>
        /\bDROP (TABLE|TYPE|COLUMN)\b/.test(line) ||
        /\bSET DATA TYPE\b|\bSET NOT NULL\b|^CREATE UNIQUE INDEX\b/.test(line) ||
        (/\bADD COLUMN\b.*\bNOT NULL\b/.test(line) && !/\bDEFAULT\b/.test(line)),
    );
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(error.message);
  } else {
    console.error(`db:migration failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exitCode = 1;
});
