import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { isTransactionConflict } from "@/lib/db-unavailable";
import { env } from "@/lib/env";
import { log } from "@/lib/log";

/** A transaction client, as handed to `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

// One client per process and lane: Next.js dev reloads modules, so the instances live on
// globalThis. Each client's connection pool is ours, so that the hot paths can send a statement
// through it without Prisma (`query` below) on the same connections.
//
// Two lanes (docs/database.md, "Connection pools"): requests, and background work (the job
// functions behind /api/inngest and the event relay, which run in runInBackground). Each has a
// pool of its own, so a backlog of background work can hold every connection of its pool and a
// request still gets one of the other's.
interface Lane {
  db?: PrismaClient;
  pool?: pg.Pool;
}
const globalForDb = globalThis as unknown as { __dbLanes?: { requests: Lane; background: Lane }; __dbSubstitute?: PrismaClient };
const lanes = (globalForDb.__dbLanes ??= { requests: {}, background: {} });

/** Connections per lane and process: requests from DATABASE_POOL_SIZE, background work 5. */
export const BACKGROUND_POOL_SIZE = 5;

const backgroundLane = new AsyncLocalStorage<true>();

/**
 * Runs `fn` as background work: its statements and transactions use the background pool. The
 * serve endpoint of the job functions and the event relay run in it.
 */
export function runInBackground<T>(fn: () => T): T {
  return backgroundLane.run(true, fn);
}

function currentLane(): Lane {
  return backgroundLane.getStore() ? lanes.background : lanes.requests;
}

/** `timestamp(3)` columns hold UTC wall time: read them as UTC whatever the process's zone. */
const TIMESTAMP_OIDS = new Set([1114]);
const utcTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    TIMESTAMP_OIDS.has(oid) && format !== "binary"
      ? (value: string) => new Date(`${value.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

function createClient(lane: Lane, max: number): PrismaClient {
  const pool = new pg.Pool({ connectionString: env().DATABASE_URL, max, types: utcTypes });
  lane.pool = pool;
  // disposeExternalPool: `$disconnect` ends the pool as it would end one the adapter made.
  return new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
}

// The ambient transaction (D6, see runInTransaction): while one is open in the current async
// context, `db` and `getDb()` are that transaction, so domain code that calls `db.x` or
// `db.$transaction(fn)` joins it without knowing. A nested `$transaction(fn)` runs `fn` in a
// savepoint: its failure undoes its own writes only, as a separate transaction's would.
interface Ambient {
  /** The transaction; undefined in a deferred scope until its first transaction opens it. */
  client: PrismaClient | undefined;
  /** A deferred scope (runWithDeferredTransaction): opens the transaction on first use. */
  open?: () => Promise<PrismaClient>;
  afterCommit: (() => void)[];
  afterRollback: (() => Promise<void> | void)[];
  savepoints: number;
}
const ambient = new AsyncLocalStorage<Ambient>();

function rootClient(): PrismaClient {
  if (globalForDb.__dbSubstitute) return globalForDb.__dbSubstitute;
  const lane = currentLane();
  lane.db ??= createClient(lane, lane === lanes.background ? BACKGROUND_POOL_SIZE : env().DATABASE_POOL_SIZE);
  return lane.db;
}

/** The current lane's pool for `query`; none while a test substitutes the client. */
function rootPool(): pg.Pool | undefined {
  if (globalForDb.__dbSubstitute) return undefined;
  rootClient();
  return currentLane().pool;
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
  const store = ambient.getStore();
  if (!store) return retryingRoot();
  return store.client ?? deferredRoot(store);
}

/** What may change rows: in a deferred scope these open its transaction and run in it. */
const WRITES = new Set(["create", "createMany", "createManyAndReturn", "update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"]);
const RAW = new Set(["$executeRaw", "$executeRawUnsafe", "$queryRaw", "$queryRawUnsafe"]);

/**
 * The client of a deferred scope before its transaction is open: reads go to the root client (they
 * hold no connection past their statement, e.g. across an outbound fetch); the first write, raw
 * statement or transaction opens the scope's transaction and runs in it.
 */
function deferredRoot(store: Ambient): PrismaClient {
  const root = retryingRoot();
  const inTransaction = (call: (client: PrismaClient) => Promise<unknown>) => async (): Promise<unknown> => call(store.client ?? (await store.open!()));
  return new Proxy(root, {
    get(target, prop) {
      if (prop === "$transaction") return (fn: (tx: PrismaClient) => Promise<unknown>) => runInTransaction(fn);
      if (typeof prop === "string" && RAW.has(prop))
        return (...args: unknown[]) => inTransaction((c) => (c[prop as "$executeRawUnsafe"] as (...a: unknown[]) => Promise<unknown>)(...args))();
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof prop !== "string" || prop.startsWith("$") || typeof value !== "object" || value === null) return value;
      // A model delegate: its writes run in the scope's transaction.
      return new Proxy(value, {
        get(delegate, method) {
          const fn = Reflect.get(delegate, method, delegate) as unknown;
          if (typeof method !== "string" || !WRITES.has(method) || typeof fn !== "function") return fn;
          return (...args: unknown[]) =>
            inTransaction((c) => (c as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>)[prop]![method]!(...args))();
        },
      });
    },
  });
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

/** The log message of each retry (the load tests count these lines). */
export const TRANSACTION_RETRIED = "transaction retried after a conflict";

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
      log().info({ attempt: n, err: { message: error instanceof Error ? error.message.slice(-200) : String(error) } }, TRANSACTION_RETRIED);
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
    return savepoint(tx, state(), () => (arg as (c: PrismaClient) => Promise<unknown>)(state().client!));
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
  if (open) return (open.client ?? (await open.open!())).$transaction((tx) => fn(tx as PrismaClient));
  let state = newAmbient();
  const result = await withConflictRetry(
    () => {
      state = newAmbient();
      return rootClient().$transaction(
        async (tx) => {
          state.client = ambientClient(tx, () => state);
          return ambient.run(state, () => fn(state.client!));
        },
        { timeout: options.timeout ?? 5_000, maxWait: 10_000 },
      );
    },
    // Each rolled back attempt undoes what it queued outside the database.
    () => runRollbackHooks(state),
  );
  for (const hook of state.afterCommit) runSafely(hook);
  return result;
}

async function runRollbackHooks(state: Ambient): Promise<void> {
  for (const hook of state.afterRollback)
    await Promise.resolve()
      .then(hook)
      .catch((e: unknown) => console.error("[db] after-rollback step failed:", e));
}

export interface DeferredTransactionHooks<T> {
  /** The transaction's first statements, when it opens (may throw: the work fails with it). */
  begin: (tx: PrismaClient) => Promise<void>;
  /** Its last statements, after `work` succeeded, before the commit. */
  finish: (tx: PrismaClient, result: T) => Promise<void>;
}

/**
 * Runs `work` in a deferred scope: nothing is opened up front; the first transaction, write or
 * raw statement inside it opens one transaction (running `begin`), everything after joins it (a
 * nested transaction is a savepoint), and it commits only when `work` has returned (running
 * `finish` first). So the work and what `finish` records commit together, while the work's reads
 * and outbound calls before its first change hold no connection. A failure of `work` rolls the
 * transaction back; a conflict (see withConflictRetry) runs `work` again from the start.
 * `opened` tells whether the transaction was opened (when not, `finish` did not run).
 */
export async function runWithDeferredTransaction<T>(
  work: () => Promise<T>,
  hooks: DeferredTransactionHooks<T>,
  options: TransactionOptions = {},
): Promise<{ result: T; opened: boolean }> {
  if (ambient.getStore()) throw new Error("runWithDeferredTransaction inside a transaction");
  let state = newAmbient();
  const attempt = async (): Promise<{ result: T; opened: boolean }> => {
    const current = (state = newAmbient());
    // Settles the open transaction: its callback waits for this, then finishes or throws.
    let settle!: (end: { result: T } | { failed: true }) => void;
    const ended = new Promise<{ result: T } | { failed: true }>((resolve) => (settle = resolve));
    let transaction: Promise<unknown> | undefined;
    let opening: Promise<PrismaClient> | undefined;
    current.open = () =>
      (opening ??= new Promise<PrismaClient>((resolve, reject) => {
        transaction = rootClient().$transaction(
          async (tx) => {
            current.client = ambientClient(tx, () => current);
            await hooks.begin(current.client);
            resolve(current.client);
            const end = await ended;
            if ("failed" in end) throw ROLLBACK;
            await hooks.finish(current.client, end.result);
          },
          { timeout: options.timeout ?? 5_000, maxWait: 10_000 },
        );
        transaction.catch((error: unknown) => reject(error as Error));
      }));
    let result: T;
    try {
      result = await ambient.run(current, work);
    } catch (error) {
      settle({ failed: true });
      await transaction?.catch(() => undefined);
      throw error;
    }
    settle({ result });
    await transaction;
    return { result, opened: transaction !== undefined };
  };
  const outcome = await withConflictRetry(attempt, () => runRollbackHooks(state));
  for (const hook of state.afterCommit) runSafely(hook);
  return outcome;
}

/** Thrown inside a deferred transaction's callback to roll it back after its work failed. */
const ROLLBACK = new Error("rolled back: the work failed");

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
 * mapping: for the hot paths, where Prisma's per-query work costs more than the query.
 * `text` uses $1, $2... placeholders. Rows come as pg reads them (timestamps as UTC Dates, int8 as
 * strings: cast counts to int). Inside an ambient transaction, or when a test substituted the
 * client, it goes through that client instead, so it joins the transaction and sees what the test
 * arranged.
 */
export async function query<R>(text: string, values: unknown[] = [], options: { name?: string } = {}): Promise<R[]> {
  // In a transaction a conflict is the transaction's to retry; alone, the statement is its own. In
  // a deferred scope the statement (which may write) opens the scope's transaction.
  const store = ambient.getStore();
  if (store) return (store.client ?? (await store.open!())).$queryRawUnsafe<R[]>(text, ...values);
  return withConflictRetry(async () => {
    const pool = rootPool();
    if (!pool) return rootClient().$queryRawUnsafe<R[]>(text, ...values);
    // A `name` makes it a prepared statement on each connection (parsed and planned once there,
    // then only bound and executed): for statements run on every request of a hot path.
    const result = await pool.query<R & pg.QueryResultRow>(options.name ? { name: options.name, text, values } : { text, values });
    return result.rows;
  });
}

/** Tests and benchmarks only: the next `db` call makes new clients (after the environment changed). */
export async function resetDbClientForTests(): Promise<void> {
  const previous = [lanes.requests.db, lanes.background.db];
  for (const lane of [lanes.requests, lanes.background]) {
    lane.db = undefined;
    lane.pool = undefined;
  }
  await Promise.all(previous.map((client) => client?.$disconnect()));
}

/** Tests only: every `db` call (outside an ambient transaction), in either lane, goes to `client` until the returned restore runs. */
export function useClientForTests(client: PrismaClient): () => void {
  const previous = globalForDb.__dbSubstitute;
  globalForDb.__dbSubstitute = client;
  return () => {
    globalForDb.__dbSubstitute = previous;
  };
}
