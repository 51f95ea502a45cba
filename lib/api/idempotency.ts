import { createHash } from "node:crypto";
import { db } from "@/lib/db";
import { AppError, conflict, invalidRequest } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

// D6: `Idempotency-Key` on POST. The record is inserted BEFORE the handler runs, so the unique
// (clientId, key) constraint decides which of two concurrent duplicates does the work; the other
// waits for the stored response (or gets 409 if it takes too long). Final responses below 500
// are stored and replayed for 24 hours; a 5xx or a crash releases the key so the client can retry.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** An unfinished record older than this belongs to a request that died; it is taken over. */
const ABANDONED_AFTER_MS = 2 * 60 * 1000;
/** How long a duplicate waits for the first request to finish. */
const WAIT_MS = 5_000;
const POLL_MS = 100;
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

interface ClaimInput {
  clientId: string;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

const isUniqueViolation = (e: unknown) => e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function claimIdempotencyKey(input: ClaimInput): Promise<Claim> {
  const { clientId, key } = input;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const now = new Date();
    await db.idempotencyRecord.deleteMany({
      where: {
        clientId,
        key,
        OR: [{ expiresAt: { lt: now } }, { completedAt: null, createdAt: { lt: new Date(now.getTime() - ABANDONED_AFTER_MS) } }],
      },
    });
    try {
      const record = await db.idempotencyRecord.create({
        data: { ...input, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) },
        select: { id: true },
      });
      return { kind: "claimed", recordId: record.id };
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
    const existing = await db.idempotencyRecord.findUnique({ where: { clientId_key: { clientId, key } } });
    if (!existing) continue; // released or expired in between: claim again
    if (existing.requestHash !== input.requestHash) {
      throw conflict("This Idempotency-Key was already used with a different request");
    }
    if (existing.completedAt && existing.statusCode !== null && existing.responseBody !== null) {
      return { kind: "replay", status: existing.statusCode, body: existing.responseBody };
    }
    if (Date.now() >= deadline) {
      throw new AppError("conflict", "A request with this Idempotency-Key is still being processed; retry later");
    }
    await sleep(POLL_MS);
  }
}

export async function completeIdempotencyKey(recordId: string, status: number, body: string): Promise<void> {
  await db.idempotencyRecord.update({ where: { id: recordId }, data: { statusCode: status, responseBody: body, completedAt: new Date() } });
}

export async function releaseIdempotencyKey(recordId: string): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { id: recordId } });
}
