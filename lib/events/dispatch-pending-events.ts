import { query } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { eventSender, type EventSender, type OutgoingEvent } from "./sender";
import { commandEventIds, isEventType } from "./types";

export type DispatchOptions = {
  /** Most events handed over in one call (one Inngest request). */
  limit?: number;
  /** Only this organization's events; lets tests share a database without taking each other's. */
  orgId?: string;
  /** Give up on a send after this long; the events stay pending. */
  sendTimeoutMs?: number;
  /** Defaults to the registered sender (lib/events/sender.ts). */
  send?: EventSender;
};

type PendingRow = {
  id: string;
  orgId: string;
  portalId: string | null;
  type: string;
  data: Prisma.JsonValue;
  occurredAt: Date;
  createdAt: Date;
  /** Whether the event has webhooks / a partner to go to now (the envelope's `routes`). */
  webhooks: boolean;
  partner: boolean;
};

const DEFAULT_LIMIT = 100;
const DEFAULT_SEND_TIMEOUT_MS = 15_000;
/** A claim outlives the send by this much; after it, a crashed relay's rows are taken again. */
const LEASE_MARGIN_MS = 10_000;

/**
 * Hands committed, undispatched events to Inngest, oldest first (D22).
 *
 * The claim is one `UPDATE ... RETURNING` that leases the rows (`FOR UPDATE SKIP LOCKED` in its
 * subquery), so a second relay (another process, or the cron sweep) skips rows this one holds and
 * nothing is handed over twice by two live relays. The send happens outside any transaction, so
 * no connection or row lock is held for the length of the send. A crash after a successful send leaves the rows
 * pending until the lease ends; the next send repeats them with the same Inngest event id (the row
 * id), which Inngest ignores within its 24-hour deduplication window. A failed send records the
 * attempt and error and releases the rows for the next run. Events of rolled-back transactions
 * never exist as rows.
 */
export async function dispatchPendingEvents(options: DispatchOptions = {}): Promise<{ sent: number; failed: number }> {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const sendTimeoutMs = options.sendTimeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
  const leaseUntil = new Date(Date.now() + sendTimeoutMs + LEASE_MARGIN_MS);

  // Straight through the pool (lib/db `query`), as the release below: the relay runs after every
  // write, and Prisma's per-statement work cost more than the statements (issue 17).
  const values: unknown[] = [leaseUntil.toISOString(), limit];
  if (options.orgId) values.push(options.orgId);
  const claimed = await query<PendingRow>(
    `UPDATE "Event" SET "dispatchLeaseUntil" = $1::timestamp(3)
     WHERE "id" IN (
       SELECT "id" FROM "Event"
       WHERE "dispatchedAt" IS NULL
         AND ("dispatchLeaseUntil" IS NULL OR "dispatchLeaseUntil" < now())
         ${options.orgId ? `AND "orgId" = $3::uuid` : ""}
       ORDER BY "createdAt", "id"
       LIMIT $2::int
       FOR UPDATE SKIP LOCKED)
     RETURNING "id", "orgId", "portalId", "type", "data", "occurredAt", "createdAt",
       EXISTS (SELECT 1 FROM "Webhook" w WHERE w."orgId" = "Event"."orgId" AND w."enabled" AND "Event"."type" = ANY(w."events")) AS "webhooks",
       EXISTS (SELECT 1 FROM "PartnerConnection" c WHERE c."orgId" = "Event"."orgId" AND c."status" = 'connected') AS "partner"`,
    values,
  );
  if (claimed.length === 0) return { sent: 0, failed: 0 };
  // RETURNING keeps no order; Inngest gets the batch oldest first.
  const rows = claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  const ids = rows.map((r) => r.id);

  try {
    const send = options.send ?? eventSender();
    await withTimeout(send(rows.map(toOutgoingEvent)), sendTimeoutMs);
  } catch (err) {
    await query(
      `UPDATE "Event" SET "dispatchAttempts" = "dispatchAttempts" + 1, "lastDispatchError" = $2, "dispatchLeaseUntil" = NULL
       WHERE "id" IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid)`,
      [JSON.stringify(ids), errorText(err)],
    );
    return { sent: 0, failed: rows.length };
  }
  // One statement marks the whole batch sent.
  await query(
    `UPDATE "Event" SET "dispatchedAt" = $2::timestamp(3), "lastDispatchError" = NULL, "dispatchLeaseUntil" = NULL
     WHERE "id" IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid)`,
    [JSON.stringify(ids), new Date().toISOString()],
  );
  return { sent: rows.length, failed: 0 };
}

/**
 * The job engine's event for an outbox row. The row id is its event id (its idempotency key) and
 * `event_id` in the data, so every consumer can name the event the same way (D21). A command
 * (`commandEventIds` in types.ts) goes as it is, under the id its catalogue entry gives it. A plain payload,
 * not `events[type].create()`: validation was done when the row was written, and a row written
 * under an older schema must still leave the outbox.
 */
function toOutgoingEvent(row: PendingRow): OutgoingEvent {
  const own = isJsonObject(row.data) ? row.data : {};
  const commandId = isEventType(row.type) ? commandEventIds[row.type] : undefined;
  if (commandId) return { id: (commandId as (d: unknown) => string)(own), name: row.type, data: own, ts: row.occurredAt.getTime() };
  return {
    id: row.id,
    name: row.type,
    data: { event_id: row.id, org_id: row.orgId, portal_id: row.portalId, ...own, routes: { webhooks: row.webhooks, partner: row.partner } },
    ts: row.occurredAt.getTime(),
  };
}

function isJsonObject(value: Prisma.JsonValue): value is Prisma.JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  // A send that outlives the deadline may still land; that is harmless, as the repeat carries the
  // same event ids. Its late rejection must not become an unhandled one.
  promise.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Inngest send timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** The error as stored on the rows; fetch hides the reason (e.g. ECONNREFUSED) in `cause`. */
function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : "";
  return `${message}${cause}`.slice(0, 1000);
}
