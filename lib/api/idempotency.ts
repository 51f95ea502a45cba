import { createHash } from "node:crypto";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { AppError, conflict, invalidRequest } from "@/lib/errors";

// D6: `Idempotency-Key` on POST. The key is claimed INSIDE the transaction that does the work, and
// the outcome is stored in that same transaction (lib/api/route.ts): the record exists if and only
// if the work committed, so a retry after any failure (a crash, a lost connection, a failed
// commit) either replays the committed outcome or finds no record and does the work, never twice.
// The claim is an insert into the unique (clientId, key) index: a concurrent duplicate's insert
// waits on the first transaction's uncommitted row, then sees the stored outcome (or, if the first
// rolled back, claims the key itself). Final responses below 500 are stored and replayed for 24
// hours; a 5xx rolls back with everything else.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a duplicate waits for the first request to finish (then 409). */
export const WAIT_MS = 5_000;
export const MAX_KEY_LENGTH = 255;

export function readIdempotencyKey(req: Request): string | null {
  const key = req.headers.get("idempotency-key");
  if (key === null) return null;
  if (key.trim() === "" || key.length > MAX_KEY_LENGTH) {
    throw invalidRequest(`Idempotency-Key: must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  return key;
}

/** What "the same request" means: method, path with query, and the exact body. */
export function requestHash(method: string, path: string, body: string): string {
  return createHash("sha256").update(`${method}\n${path}\n`).update(body).digest("hex");
}

export type Claim = { kind: "claimed"; recordId: string } | { kind: "replay"; status: number; body: string };

export interface ClaimInput {
  clientId: string;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

/** The stored outcome of a committed request with this key, if any (read outside a transaction). */
export async function findStoredOutcome(client: PrismaClient, input: ClaimInput): Promise<Claim | null> {
  const existing = await client.idempotencyRecord.findUnique({ where: { clientId_key: { clientId: input.clientId, key: input.key } } });
  // Expired and unfinished records are the claim's business (inside the transaction).
  if (!existing || existing.expiresAt < new Date() || existing.completedAt === null) return null;
  return outcomeOf(existing, input);
}

/**
 * Claims the key in the open transaction `tx`. Returns the stored outcome when a committed request
 * already used it; throws 409 when it was used with a different request, or when a concurrent
 * duplicate is still running after WAIT_MS.
 */
export async function claimIdempotencyKey(tx: PrismaClient, input: ClaimInput): Promise<Claim> {
  const { clientId, key } = input;
  const now = new Date();
  // Expired records, and unfinished ones (left by an earlier version that stored outcomes after
  // the commit): no request is behind them any more.
  await tx.idempotencyRecord.deleteMany({ where: { clientId, key, OR: [{ expiresAt: { lt: now } }, { completedAt: null }] } });
  // The insert waits on a concurrent duplicate's uncommitted row; lock_timeout bounds the wait.
  await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${WAIT_MS}ms'`);
  let inserted: number;
  try {
    ({ count: inserted } = await tx.idempotencyRecord.createMany({
      data: [{ ...input, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) }],
      skipDuplicates: true,
    }));
  } catch (error) {
    if (isLockTimeout(error)) throw new AppError("conflict", "A request with this Idempotency-Key is still being processed; retry later");
    throw error;
  }
  await tx.$executeRawUnsafe("SET LOCAL lock_timeout = DEFAULT");
  const record = await tx.idempotencyRecord.findUnique({ where: { clientId_key: { clientId, key } } });
  if (!record) throw new Error("Idempotency record vanished inside its transaction");
  if (inserted === 1) return { kind: "claimed", recordId: record.id };
  return outcomeOf(record, input);
}

function outcomeOf(record: { requestHash: string; statusCode: number | null; responseBody: string | null }, input: ClaimInput): Claim {
  if (record.requestHash !== input.requestHash) throw conflict("This Idempotency-Key was already used with a different request");
  if (record.statusCode === null || record.responseBody === null) {
    throw new AppError("conflict", "A request with this Idempotency-Key is still being processed; retry later");
  }
  return { kind: "replay", status: record.statusCode, body: record.responseBody };
}

/** Stores the outcome in the claiming transaction: it commits with the work or not at all. */
export async function completeIdempotencyKey(tx: PrismaClient, recordId: string, status: number, body: string): Promise<void> {
  await tx.idempotencyRecord.update({ where: { id: recordId }, data: { statusCode: status, responseBody: body, completedAt: new Date() } });
}

/** PostgreSQL 55P03 (lock_not_available), as the pg driver adapter reports it. */
function isLockTimeout(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${JSON.stringify((error as { meta?: unknown }).meta ?? {})}` : String(error);
  return /55P03|lock timeout/i.test(text);
}
