import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Compilable, type InferResult } from "kysely";
import { getDb, query, type Tx } from "@/lib/db";
import type { DB } from "@/lib/generated/kysely/types";

// The typed SQL layer (docs/database.md): statements Prisma's client cannot express (row locks, one
// statement instead of a transaction's round trips, CTEs) are built with Kysely over the tables and
// columns generated from prisma/schema.prisma at `npm run db:generate` (prisma-kysely), so a
// statement that names a column the schema no longer has fails `npm run typecheck`. Kysely only
// builds and compiles here; statements are sent by `rows`/`execute` through lib/db.ts (the pool,
// the ambient transaction, the retry after a conflict), never through a connection of Kysely's own.

/** The query builder over the schema's tables. Build with it; send with `rows` or `execute`. */
export const sql = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

export interface SendOptions {
  /** The transaction to run in (a `tx` handed to a domain helper); default: the ambient one, or none. */
  tx?: Tx;
  /** A prepared statement's name, for statements of a hot path (lib/db.ts `query`). */
  name?: string;
}

/** Sends a statement and returns its rows, typed as Kysely infers them from the schema. */
export async function rows<Q extends Compilable<unknown>>(statement: Q, options: SendOptions = {}): Promise<InferResult<Q>> {
  const { text, values } = compiled(statement);
  if (options.tx) return options.tx.$queryRawUnsafe<InferResult<Q>>(text, ...values);
  return (await query(text, values, options.name ? { name: options.name } : {})) as InferResult<Q>;
}

/** Sends a statement whose rows are not read (a lock, an update); returns the number of rows it touched. */
export async function execute(statement: Compilable<unknown>, options: { tx?: Tx } = {}): Promise<number> {
  const { text, values } = compiled(statement);
  return (options.tx ?? getDb()).$executeRawUnsafe(text, ...values);
}

/**
 * The statement's text and values. Dates go as ISO text: `timestamp(3)` columns hold UTC wall
 * time, and PostgreSQL ignores the `Z` of such text for them, whatever the process's zone.
 */
function compiled(statement: Compilable<unknown>): { text: string; values: unknown[] } {
  const { sql: text, parameters } = statement.compile();
  return { text, values: parameters.map((v) => (v instanceof Date ? v.toISOString() : v)) };
}
