import { createHash } from "node:crypto";

import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql as text,
  type AliasedRawBuilder,
  type Compilable,
  type Expression,
  type InferResult,
  type RawBuilder,
} from "kysely";
import { getDb, query, type Tx } from "@/lib/db";
import type { ActorType, AssigneeType, DB } from "@/lib/generated/kysely/types";

// The typed SQL layer (docs/database.md): statements Prisma's client cannot express (row locks, one
// statement instead of a transaction's round trips, CTEs) are built with Kysely over the tables and
// columns generated from prisma/schema.prisma at `npm run db:generate` (prisma-kysely), so a
// statement that names a column the schema no longer has fails `npm run typecheck`. Kysely only
// builds and compiles here; statements are sent by `rows`/`execute` through lib/db.ts (the pool,
// the ambient transaction, the retry after a conflict), never through a connection of Kysely's own.
// The few constructs the builder has no method for are typed helpers below (the only SQL text
// outside lib/db.ts): a JSON array parameter as rows, array intersection, a text[] parameter,
// timestamps as ISO text and moved by an interval, and constants written into the statement.

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
}

/** Sends a statement and returns its rows, typed as Kysely infers them from the schema. */
export async function rows<Q extends Compilable<unknown>>(statement: Q, options: SendOptions = {}): Promise<InferResult<Q>> {
  const { text, values } = compiled(statement);
  if (options.tx) return options.tx.$queryRawUnsafe<InferResult<Q>>(text, ...values);
  // A fixed statement marked `prepared` goes as a prepared statement of its name (lib/db.ts `query`).
  const name = (statement as Partial<Prepared>).preparedName;
  return (await query(text, values, name ? { name } : {})) as InferResult<Q>;
}

/** A fixed statement's name as a prepared statement (fixedStatement). */
interface Prepared {
  preparedName: string;
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

/** The PostgreSQL types a JSON recordset's columns may have, with the TypeScript type read from each. */
interface RecordsetTypes {
  uuid: string;
  text: string;
  bool: boolean;
  /** A `timestamp(3)` column, given as ISO text (its `Z` ignored: the column holds UTC wall time). */
  timestamp: string;
  jsonb: unknown;
  int: number;
  ActorType: ActorType;
  AssigneeType: AssigneeType;
}
export type RecordsetColumns = Readonly<Record<string, keyof RecordsetTypes>>;
/** The row type of a recordset with these columns (a key missing from a JSON object reads as null). */
export type RecordsetRow<C extends RecordsetColumns> = { [K in keyof C]: RecordsetTypes[C[K]] | null };
/** The SQL name of each type: the enums are quoted as the schema created them. */
const RECORDSET_TYPE_SQL: Record<keyof RecordsetTypes, string> = {
  uuid: "uuid",
  text: "text",
  bool: "boolean",
  timestamp: "timestamp(3)",
  jsonb: "jsonb",
  int: "int",
  ActorType: '"ActorType"',
  AssigneeType: '"AssigneeType"',
};

/**
 * The objects of a JSON array parameter as rows: `jsonb_to_recordset($n::jsonb) AS alias(col type, ...)`,
 * to insert many rows (or rows of several tables) in one statement from one parameter. Use it as a
 * table: `selectFrom(jsonRecordset(JSON.stringify(rows), "a", COLUMNS))`.
 */
export function jsonRecordset<A extends string, C extends RecordsetColumns>(json: string, alias: A, columns: C): AliasedRawBuilder<RecordsetRow<C>, A> {
  const definitions = Object.entries(columns).map(([name, type]) => text`${text.id(name)} ${text.raw(RECORDSET_TYPE_SQL[type])}`);
  return text<RecordsetRow<C>>`jsonb_to_recordset(${json}::jsonb)`.as<A>(text`${text.id(alias)}(${text.join(definitions)})`);
}

/** A text[] parameter (null: a NULL text[]). */
export const textArray = <T extends readonly string[] | null>(values: T): RawBuilder<T> => text<T>`${values}::text[]`;

/** A uuid[] parameter: a list of ids as one value (`id = ANY(...)`), so the statement's text does not depend on its length. */
export const uuidArray = (values: readonly string[]): RawBuilder<string[]> => text<string[]>`${values}::uuid[]`;

/** The elements of an array as a table `alias` whose one column has the same name: `unnest(a) AS s(s)`. */
export const elements = <A extends string>(array: Expression<readonly string[] | null>, alias: A): AliasedRawBuilder<Record<A, string>, A> =>
  text<Record<A, string>>`unnest(${array})`.as<A>(text`${text.id(alias)}(${text.id(alias)})`);

/** The elements of `a` that are also in `b`, in `a`'s order: `ARRAY(SELECT s FROM unnest(a) s WHERE s = ANY(b))`. */
export const intersection = (a: Expression<readonly string[] | null>, b: Expression<readonly string[] | null>): RawBuilder<string[]> =>
  text<string[]>`ARRAY(SELECT s FROM unnest(${a}) s WHERE s = ANY(${b}))`;

/**
 * A `timestamp(3)` column (UTC wall time) as Date#toISOString writes it, made by PostgreSQL: rows
 * whose timestamps go out as JSON text need no Date made per value.
 */
export const isoText = <T extends Date | null>(column: Expression<T>): RawBuilder<T extends Date ? string : string | null> =>
  text`to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** `at` moved by `count` times `unit` (`at + count * interval '1 unit'`; a negative count moves it back). */
export const plusInterval = (at: Expression<Date | string>, count: Expression<number | null> | number, unit: "millisecond" | "second"): RawBuilder<Date> =>
  text<Date>`${at} + ${typeof count === "number" ? text.lit(count) : count} * ${text.raw(`interval '1 ${unit}'`)}`;

/**
 * A fixed value of the code written into the statement as a constant, not sent as a parameter:
 * for expressions that must match an index's expression exactly (a parameter would not), such as
 * the nil uuid of the folder page indexes. Only for values the code itself holds, never input.
 */
export const constant = <T extends string>(value: T, type: "uuid"): RawBuilder<T> => text<T>`${text.lit(value)}::${text.raw(type)}`;

/** A parameter cast to one of the schema's enum types: `$n::"Type"` (where nothing else gives it its type). */
export const enumValue = <T extends string>(value: T, type: "TaskActionType" | "TaskStatus" | "AssigneeType" | "ActorType" | "DeliveryStatus"): RawBuilder<T> =>
  text<T>`${value}::${text.id(type)}`;

/** A parameter's stand-in while a fixed statement is compiled: text no caller sends. */
const standIn = (key: string) => `\u0000lib/sql:${key}\u0000`;

/**
 * A statement whose text does not depend on its values, built and compiled once: `build` runs
 * once with a stand-in for each value, and each call then only puts the values in the places the
 * stand-ins took among the parameters (no building, no compiling: for the hot paths, about 0.1 ms
 * of CPU per call less). Every value must reach the statement as a parameter (a `where` value,
 * `eb.val`, `textArray`...) and must not be read by `build` (no `?? null`, no `.map`): compiling
 * throws when a value does not appear among the parameters.
 *
 * `prepared`: sent by `rows` as a prepared statement named after its text, which each connection
 * parses once; after five runs PostgreSQL may keep one generic plan for it on that connection. Only
 * for statements whose plan cannot go wrong as tables grow (inserts, a key lookup): a generic plan
 * is made from the table sizes of the moment and kept while the connection lives, so a statement
 * that joins a table planned while it was small goes on scanning it whole once it is large (seen:
 * the relay's delivery planning at 3 s per run after a few thousand deliveries).
 */
export function fixedStatement<P extends Record<string, unknown>, Q extends Compilable<unknown>>(
  keys: readonly (keyof P & string)[],
  build: (values: P) => Q,
  options: { prepared?: boolean } = {},
): (values: P) => Compilable<InferResult<Q>[number]> {
  let compiledOnce: { query: ReturnType<Q["compile"]>; places: (string | undefined)[]; preparedName: string | undefined } | undefined;
  return (values) => {
    if (!compiledOnce) {
      const query = build(Object.fromEntries(keys.map((key) => [key, standIn(key)])) as P).compile() as ReturnType<Q["compile"]>;
      const byStandIn = new Map(keys.map((key) => [standIn(key), key]));
      const places = query.parameters.map((value) => (typeof value === "string" ? byStandIn.get(value) : undefined));
      const missing = keys.filter((key) => !places.includes(key));
      if (missing.length > 0) throw new Error(`fixedStatement: ${missing.join(", ")} not among the statement's parameters`);
      const preparedName = options.prepared ? `fixed_${createHash("sha256").update(query.sql).digest("hex").slice(0, 24)}` : undefined;
      compiledOnce = { query, places, preparedName };
    }
    const { query, places, preparedName } = compiledOnce;
    const parameters = query.parameters.map((value, i) => (places[i] === undefined ? value : values[places[i]]));
    const statement: Compilable<InferResult<Q>[number]> & Partial<Prepared> = { compile: () => ({ ...query, parameters }) as never, preparedName };
    return statement;
  };
}
