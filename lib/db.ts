import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { isTransactionConflict } from "@/lib/db-unavailable";
import { env } from "@/lib/env";
import { log } from "@/lib/log";

export type Db = PrismaClient;
/** A transaction client, as handed to `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

// One client per process: Next.js dev reloads modules, so the instance lives on globalThis. The
// client's connection pool is ours (`__pool`), so that the hot paths can send a statement through
// it without Prisma (`query` below) on the same connections.
const globalForDb = globalThis as unknown as { __db?: PrismaClient; __pool?: pg.Pool };

/** `timestamp(3)` columns hold UTC wall time: read them as UTC whatever the process's zone. */
const TIMESTAMP_OIDS = new Set([1114]);
const utcTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    TIMESTAMP_OIDS.has(oid) && format !== "binary"
      ? (value: string) => new Date(`${value.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

function createClient(): PrismaClient {
  const pool = new pg.Pool({ connectionString: env().DATABASE_URL, max: 10, types: utcTypes });
  globalForDb.__pool = pool;
  // disposeExternalPool: `$disconnect` ends the pool as it would end one the adapter made.
  return new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
}

// The ambient transaction (D6, see runInTransaction): while one is open in the current async
// context, `db` and `getDb()` are that transaction, so domain code that calls `db.x` or
// `db.$transaction(fn)` joins it without knowing. A nested `$transaction(fn)` runs `fn` in a
// savepoint: its failure undoes its own writes only, as a separate transaction's would.
interface Ambient {
  client: PrismaClient;
  afterCommit: (() => void)[];
  afterRollback: (() => Promise<void> | void)[];
  savepoints: number;
}
const ambient = new AsyncLocalStorage<Ambient>();

function rootClient(): PrismaClient {
  globalForDb.__db ??= createClient();
  return globalForDb.__db;
}

/**
 * The root client as domain code sees it: its `$transaction(fn)` is retried after a conflict
 * (withConflictRetry). Built per call (a proxy of a cached client), so a test's substituted client
 * is honoured.
 */
const retryingRoots = new WeakMap<PrismaClient, PrismaClient>();
function retryingRoot(): PrismaClient {
  const client = rootClient();
  let wrapped = retryingRoots.get(client);
  if (!wrapped) {
    const transaction = ((arg: unknown, options?: unknown) => {
      if (typeof arg !== "function") return (client.$transaction as (a: unknown, o?: unknown) => Promise<unknown>)(arg, options);
      return withConflictRetry(() => (client.$transaction as (a: unknown, o?: unknown) => Promise<unknown>)(arg, options));
    }) as PrismaClient["$transaction"];
    wrapped = new Proxy(client, {
      get(target, prop) {
        if (prop === "$transaction") return transaction;
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    retryingRoots.set(client, wrapped);
  }
  return wrapped;
}

export function getDb(): PrismaClient {
  return ambient.getStore()?.client ?? retryingRoot();
}

/** The Prisma client, created on first use so that importing this module reads no configuration. */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    const client = getDb();
    return Reflect.get(client, prop, client) as unknown;
  },
});

// Contention (docs/database.md): a transaction that PostgreSQL rolled back because it lost a race
// (a deadlock, a serialization failure) is run again as a whole, here where transactions are made,
// so no caller handles it. Attempts are bounded and spaced with full jitter; after the last one the
// error goes up, and the API answers it 503 service_unavailable with Retry-After (lib/api/error-
// response.ts), never 500. Nothing is answered, and no after-commit hook (the event relay's kick)
// runs, before the attempt that commits. On success this costs one try/catch.

/** Attempts of one transaction, the first included. */
export const TRANSACTION_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 10;
const BACKOFF_CAP_MS = 200;

/** Transactions retried after a conflict since the process started (for tests and the load figures). */
export const contentionStats = { retries: 0, exhausted: 0 };

async function withConflictRetry<T>(attempt: () => Promise<T>, onFailedAttempt?: () => Promise<void>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (onFailedAttempt) await onFailedAttempt();
      if (!isTransactionConflict(error)) throw error;
      if (n >= TRANSACTION_ATTEMPTS) {
        contentionStats.exhausted++;
        log().warn({ err: error, attempts: n }, "transaction conflicted on every attempt");
        throw error;
      }
      contentionStats.retries++;
      // Full jitter: a uniform wait up to an exponentially growing bound, so the losers of one
      // race do not meet again at the same moment.
      const bound = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (n - 1));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * bound));
    }
  }
}

/** The transaction client as a PrismaClient whose `$transaction` joins the transaction. */
function ambientClient(tx: Tx, state: () => Ambient): PrismaClient {
  const nested = async (arg: unknown) => {
    if (Array.isArray(arg)) {
      // The array form: the queries run one after another in the open transaction.
      return savepoint(tx, state(), async () => {
        const results: unknown[] = [];
        for (const query of arg as Promise<unknown>[]) results.push(await query);
        return results;
      });
    }
    return savepoint(tx, state(), () => (arg as (c: PrismaClient) => Promise<unknown>)(state().client));
  };
  return new Proxy(tx as unknown as PrismaClient, {
    get(target, prop) {
      if (prop === "$transaction") return nested;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function savepoint<T>(tx: Tx, state: Ambient, fn: () => Promise<T>): Promise<T> {
  const name = `sp_${++state.savepoints}`;
  await tx.$executeRawUnsafe(`SAVEPOINT ${name}`);
  try {
    const result = await fn();
    await tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    await tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${name}`);
    throw error;
  }
}

export interface TransactionOptions {
  /** Longest the whole transaction may stay open (Prisma's default of 5 s is too short for some API work). */
  timeout?: number;
}

/**
 * Runs `fn` in one transaction that every `db` call inside it joins (the ambient transaction), and
 * then, after the commit, what `afterCommit` queued (or, after a rollback, what `afterRollback`
 * queued). Inside an open ambient transaction it is a savepoint of that transaction, and the hooks
 * wait for the outer commit. `fn` gets the transaction client for work that is explicitly
 * transactional (`tx` parameters of domain helpers).
 */
export async function runInTransaction<T>(fn: (tx: PrismaClient) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const open = ambient.getStore();
  // Nested: a savepoint; a conflict inside it is retried with the whole outer transaction.
  if (open) return open.client.$transaction((tx) => fn(tx as PrismaClient));
  let state = newAmbient();
  const result = await withConflictRetry(
    () => {
      state = newAmbient();
      return rootClient().$transaction(
        async (tx) => {
          state.client = ambientClient(tx, () => state);
          return ambient.run(state, () => fn(state.client));
        },
        { timeout: options.timeout ?? 5_000, maxWait: 10_000 },
      );
    },
    // Each rolled back attempt undoes what it queued outside the database.
    async () => {
      for (const hook of state.afterRollback)
        await Promise.resolve()
          .then(hook)
          .catch((e: unknown) => console.error("[db] after-rollback step failed:", e));
    },
  );
  for (const hook of state.afterCommit) runSafely(hook);
  return result;
}

const newAmbient = (): Ambient => ({ client: undefined as unknown as PrismaClient, afterCommit: [], afterRollback: [], savepoints: 0 });

/** Runs `hook` after the ambient transaction commits; at once when there is none. Never throws. */
export function afterCommit(hook: () => void): void {
  const open = ambient.getStore();
  if (open) open.afterCommit.push(hook);
  else runSafely(hook);
}

/**
 * Runs `hook` if the ambient transaction rolls back (e.g. removes a stored object that the rolled
 * back rows would have named); nothing happens without one.
 */
export function afterRollback(hook: () => Promise<void> | void): void {
  ambient.getStore()?.afterRollback.push(hook);
}

function runSafely(hook: () => void): void {
  try {
    hook();
  } catch (error) {
    console.error("[db] after-commit step failed:", error);
  }
}

/**
 * One statement sent straight through the client's pool, without Prisma's query engine and row
 * mapping: for the hot paths (issue 17), where Prisma's per-query work costs more than the query.
 * `text` uses $1, $2... placeholders. Rows come as pg reads them (timestamps as UTC Dates, int8 as
 * strings: cast counts to int). Inside an ambient transaction, or when a test substituted the
 * client, it goes through that client instead, so it joins the transaction and sees what the test
 * arranged.
 */
export async function query<R>(text: string, values: unknown[] = [], options: { name?: string } = {}): Promise<R[]> {
  // In a transaction a conflict is the transaction's to retry; alone, the statement is its own.
  if (ambient.getStore()) return getDb().$queryRawUnsafe<R[]>(text, ...values);
  return withConflictRetry(async () => {
    const client = rootClient();
    const pool = globalForDb.__pool;
    if (!pool) return client.$queryRawUnsafe<R[]>(text, ...values);
    // A `name` makes it a prepared statement on each connection (parsed and planned once there,
    // then only bound and executed): for statements run on every request of a hot path.
    const result = await pool.query<R & pg.QueryResultRow>(options.name ? { name: options.name, text, values } : { text, values });
    return result.rows;
  });
}

/** Tests and benchmarks only: the next `db` call makes a new client (after the environment changed). */
export async function resetDbClientForTests(): Promise<void> {
  const previous = globalForDb.__db;
  globalForDb.__db = undefined;
  globalForDb.__pool = undefined;
  await previous?.$disconnect();
}

/** Tests only: every `db` call (outside an ambient transaction) goes to `client` until the returned restore runs. */
export function useClientForTests(client: PrismaClient): () => void {
  const previous = { db: globalForDb.__db, pool: globalForDb.__pool };
  globalForDb.__db = client;
  // `query` goes through the substituted client too.
  globalForDb.__pool = undefined;
  return () => {
    globalForDb.__db = previous.db;
    globalForDb.__pool = previous.pool;
  };
}
