import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable, isTransactionConflict } from "./db-unavailable";

// The shapes the fault tier (faults/) saw while PostgreSQL restarted under load.
const prismaError = (code: string, cause?: Record<string, unknown>) =>
  Object.assign(new Error("Invalid `prisma.portal.create()` invocation"), {
    code,
    meta: cause ? { driverAdapterError: { name: "DriverAdapterError", cause } } : {},
  });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["Prisma P1001 (can't reach the server)", prismaError("P1001", { kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 })],
    ["a raw query whose connection was terminated by a shutdown (57P01)", prismaError("P2010", { kind: "postgres", originalCode: "57P01" })],
    ["the server starting up (57P03)", Object.assign(new Error("the database system is starting up"), { code: "57P03", severity: "FATAL" })],
    ["a closed socket (adapter kind)", prismaError("P2010", { kind: "ConnectionClosed" })],
    ["node-postgres ending a connection under a query", new Error("Connection terminated unexpectedly")],
    ["node-postgres after a connection error", new Error("Client has encountered a connection error and is not queryable")],
    [
      "node-postgres refused a connection (raw pool, no adapter)",
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED", syscall: "connect" }),
    ],
    ["node-postgres reset under a query", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", syscall: "read" })],
    ["the pool could not hand out a connection in time", new Error("timeout exceeded when trying to connect")],
    [
      "Prisma P2028: no connection for a transaction within maxWait",
      Object.assign(new Error("Transaction API error: Unable to start a transaction in the given time."), { code: "P2028" }),
    ],
    [
      "Prisma P2028: the transaction ran past its timeout and was rolled back",
      Object.assign(
        new Error(
          "Transaction already closed: A commit cannot be executed on an expired transaction. The timeout for this transaction was 5000 ms, however 5012 ms passed since the start of the transaction.",
        ),
        { code: "P2028" },
      ),
    ],
    ["wrapped as a cause", new Error("outer", { cause: Object.assign(new Error("inner"), { code: "08006" }) })],
  ])("%s: yes", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", prismaError("P2002")],
    ["another transaction API error", Object.assign(new Error("Transaction API error: Transaction not found."), { code: "P2028" })],
    ["a failed query of its own (22P02)", prismaError("P2010", { kind: "postgres", originalCode: "22P02" })],
    ["a plain bug", new TypeError("cannot read properties of undefined")],
    ["not an error", "Connection terminated"],
    [
      "a cycle of causes",
      (() => {
        const a: Error & { cause?: unknown } = new Error("a");
        a.cause = new Error("b", { cause: a });
        return a;
      })(),
    ],
  ])("%s: no", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe("isTransactionConflict", () => {
  it.each([
    // As @prisma/adapter-pg reports a deadlock inside an interactive transaction.
    ["Prisma P2034 (deadlock)", prismaError("P2034", { kind: "TransactionWriteConflict", originalCode: "40P01", originalMessage: "deadlock detected" })],
    ["a raw query's serialization failure", prismaError("P2010", { kind: "postgres", originalCode: "40001" })],
    ["node-postgres, no adapter (40P01)", Object.assign(new Error("deadlock detected"), { code: "40P01", severity: "ERROR" })],
    [
      "the adapter's error itself",
      Object.assign(new Error("TransactionWriteConflict"), { name: "DriverAdapterError", cause: { kind: "TransactionWriteConflict" } }),
    ],
  ])("%s: yes", (_name, error) => {
    expect(isTransactionConflict(error)).toBe(true);
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it.each([
    ["a unique violation", prismaError("P2002", { kind: "UniqueConstraintViolation" })],
    ["a lock timeout (55P03)", prismaError("P2010", { kind: "postgres", originalCode: "55P03" })],
    ["an unreachable server", prismaError("P1001", { kind: "DatabaseNotReachable" })],
    ["a plain bug", new TypeError("x is undefined")],
  ])("%s: no", (_name, error) => {
    expect(isTransactionConflict(error)).toBe(false);
  });
});
