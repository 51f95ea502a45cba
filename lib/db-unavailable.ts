// Whether an error means the database could not be reached or dropped the connection (a restart,
// a failover, a full connection table), as opposed to a query that failed on its own. Such a
// request did not commit (a failure before or during COMMIT rolls back; a commit whose answer was
// lost is found again by Idempotency-Key), so the client is told to retry: 503 with Retry-After
// (lib/api/error-response.ts) instead of a 500. Neutral: no database client is imported here.

/** Prisma's codes for an unreachable server, a connection timeout, a closed connection, a pool timeout. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1017", "P2024"]);
/** What @prisma/adapter-pg reports for socket errors and a full connection table. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/**
 * SQLSTATE class 08 (connection exception), 57P01-57P03 (administrator or crash shutdown, cannot
 * connect now: the server is starting or stopping), 53300 (too many connections).
 */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/**
 * Socket errors node-postgres passes on as they are when it cannot open or keep a connection (the
 * statements `query` in lib/db.ts sends through the pool without Prisma's adapter, which would have
 * turned them into DatabaseNotReachable). Outbound HTTP (webhooks, file_url, S3) maps its own socket
 * errors before they could reach an API answer.
 */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);
/**
 * node-postgres errors without a code, when a connection ends under a query or the pool cannot hand
 * one out; and Prisma's P2028 when an interactive transaction could not get a connection within its
 * maxWait, or ran past its timeout and was rolled back (an overloaded pool or server: nothing was
 * committed, and the same request succeeds once the load passes).
 */
const MESSAGES =
  /Connection terminated|Client has encountered a connection error|Connection is closed|Can't reach database server|timeout exceeded when trying to connect|Unable to start a transaction in the given time|cannot be executed on an expired transaction/;

const codeLike = (value: unknown): value is string => typeof value === "string" && value.length > 0;

export function isDatabaseUnavailable(error: unknown): boolean {
  return someInChain(error, (o, e) => {
    for (const code of [o["code"], o["originalCode"]]) {
      if (codeLike(code) && (PRISMA_CODES.has(code) || SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
    }
    if (codeLike(o["kind"]) && ADAPTER_KINDS.has(o["kind"])) return true;
    return e instanceof Error && MESSAGES.test(e.message);
  });
}

/**
 * SQLSTATE 40001 (serialization failure) and 40P01 (deadlock detected), as PostgreSQL, node-postgres
 * and @prisma/adapter-pg (kind TransactionWriteConflict) report them, and Prisma's P2034: the
 * transaction lost a race with another one and was rolled back; run again as a whole, it succeeds
 * (lib/db.ts retries it, and only after the last attempt is it answered 503 with Retry-After).
 */
const CONFLICT_CODES = new Set(["40001", "40P01", "P2034"]);

export function isTransactionConflict(error: unknown): boolean {
  return someInChain(error, (o) => {
    for (const code of [o["code"], o["originalCode"]]) if (codeLike(code) && CONFLICT_CODES.has(code)) return true;
    return o["kind"] === "TransactionWriteConflict";
  });
}

/** Whether `test` holds for the error or any error it wraps (cause, Prisma's driverAdapterError). */
function someInChain(error: unknown, test: (o: Record<string, unknown>, e: object) => boolean): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 16) {
    const e = queue.shift();
    if (e === null || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const o = e as Record<string, unknown>;
    if (test(o, e)) return true;
    const meta = o["meta"] as Record<string, unknown> | undefined;
    queue.push(o["cause"], meta?.["driverAdapterError"]);
  }
  return false;
}
