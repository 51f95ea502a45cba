import { createHash, randomUUID } from "node:crypto";
import { db, type Tx } from "@/lib/db";
import { AppError, conflict, invalidRequest } from "@/lib/errors";

// D6: `Idempotency-Key` on POST (docs/database.md, Idempotency). The key's record moves through two
// states, each written in a short transaction of its own or of the change it guards:
//
//   claimed   inserted before the handler runs (one statement); `claimToken` names the holder
//   done      the stored response, written in the transaction of the handler's change (opened by
//             its first write, lib/db.ts runWithDeferredTransaction) and committed with it, or in
//             a statement of its own when the handler changed nothing (a 4xx, a read)
//
// The work and `done` commit together, so a retry after any failure either replays the response or
// finds the key claimed and not done, meaning nothing was committed. A 5xx releases the claim. A
// claim nobody works on any more (its holder answered already, crashed, or lost its connection) is
// taken over by replacing its token (compare and swap); the holder checks its token as the first
// statement of its change's transaction, locking the record, so of two holders one commits and the
// other finds the key taken and replays. No transaction is open while the handler fetches a
// file_url or does anything else before its first change.

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a duplicate waits for the first request to finish (then 409). */
export const WAIT_MS = 5_000;
/**
 * A claimed key whose holder showed no sign of work for this long is abandoned: longer than the
 * longest request (a one-step upload's 30 s fetch and its change, D15).
 */
const CLAIM_LEASE_MS = 90_000;
export const MAX_KEY_LENGTH = 255;

/** This process, in claim tokens: it knows which of its own claims are still being worked on. */
const PROCESS_ID = randomUUID();
const inFlight = new Set<string>();

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

export interface ClaimInput {
  clientId: string;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

export type Claim = { kind: "claimed"; recordId: string; token: string } | { kind: "replay"; status: number; body: string };

interface RecordRow {
  id: string;
  requestHash: string;
  statusCode: number | null;
  responseBody: string | null;
  completedAt: Date | null;
  claimToken: string | null;
  claimedAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
}

const stillProcessing = () => new AppError("conflict", "A request with this Idempotency-Key is still being processed; retry later");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Claims the key for this request, or returns the stored response of the request that used it.
 * 409 when it was used with a different request, or when another request is still working on it
 * after WAIT_MS. The caller must `release` the claim when it is done with it.
 */
export async function claimIdempotencyKey(input: ClaimInput): Promise<Claim> {
  const token = `${PROCESS_ID}.${randomUUID()}`;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const now = new Date();
    const fresh = { ...input, claimToken: token, claimedAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) };
    const [created] = await db.idempotencyRecord.createManyAndReturn({ data: [fresh], skipDuplicates: true, select: { id: true } });
    if (created) return claimed(created.id, token);
    const existing = await db.idempotencyRecord.findUnique({ where: { clientId_key: { clientId: input.clientId, key: input.key } } });
    if (!existing) continue;
    const expired = existing.expiresAt < now;
    if (!expired && existing.requestHash !== input.requestHash) throw conflict("This Idempotency-Key was already used with a different request");
    if (!expired && existing.completedAt !== null && existing.statusCode !== null && existing.responseBody !== null) {
      return { kind: "replay", status: existing.statusCode, body: existing.responseBody };
    }
    if (expired || abandoned(existing, now)) {
      // Take it over: only if nobody changed it since it was read.
      const { count } = await db.idempotencyRecord.updateMany({
        where: { id: existing.id, claimToken: existing.claimToken, completedAt: expired ? undefined : null },
        data: { ...fresh, statusCode: null, responseBody: null, completedAt: null },
      });
      if (count === 1) return claimed(existing.id, token);
      continue;
    }
    if (Date.now() >= deadline) throw stillProcessing();
    await sleep(50 + Math.random() * 50);
  }
}

function claimed(recordId: string, token: string): Claim {
  inFlight.add(token);
  return { kind: "claimed", recordId, token };
}

/** Nobody works on the claim: no holder, a holder of this process that is done, or one silent for the lease. */
function abandoned(record: RecordRow, now: Date): boolean {
  const token = record.claimToken;
  if (token === null) return true;
  if (token.startsWith(`${PROCESS_ID}.`) && !inFlight.has(token)) return true;
  return (record.claimedAt ?? record.createdAt).getTime() < now.getTime() - CLAIM_LEASE_MS;
}

/** The claim was taken over by a retry: this request's work must not commit. */
export class ClaimLostError extends Error {
  constructor() {
    super("The Idempotency-Key was taken over by another request");
  }
}

/**
 * The first statement of the guarded change's transaction: the claim is still this request's, and
 * its record stays locked until the commit (a takeover waits for it, then finds the key done).
 */
export async function holdClaim(tx: Tx, claim: { recordId: string; token: string }): Promise<void> {
  const { count } = await tx.idempotencyRecord.updateMany({
    where: { id: claim.recordId, claimToken: claim.token, completedAt: null },
    data: { claimedAt: new Date() },
  });
  if (count !== 1) throw new ClaimLostError();
}

/**
 * Stores the response: in the guarded change's transaction (`tx`), or alone when the request
 * changed nothing. False when the claim is no longer this request's.
 */
export async function completeClaim(tx: Tx, claim: { recordId: string; token: string }, status: number, body: string): Promise<boolean> {
  const { count } = await tx.idempotencyRecord.updateMany({
    where: { id: claim.recordId, claimToken: claim.token, completedAt: null },
    data: { statusCode: status, responseBody: body, completedAt: new Date() },
  });
  return count === 1;
}

/** After a 5xx: the key is free again at once (the work rolled back); best effort. */
export async function releaseClaim(claim: { recordId: string; token: string }): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { id: claim.recordId, claimToken: claim.token, completedAt: null } }).catch(() => undefined);
}

/** The request is over, whatever its end: its claim, if still unfinished, may be taken over at once. */
export function endClaim(claim: { token: string }): void {
  inFlight.delete(claim.token);
}
