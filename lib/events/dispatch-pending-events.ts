import type { InferResult } from "kysely";
import type { Prisma } from "@/lib/generated/prisma/client";
import { fixedStatement, rows, sql, uuidArray } from "@/lib/sql";
import { deliveryStart, planDeliveries, type PlannedDelivery } from "./plan-deliveries";
import { eventSender, type EventSender, type OutgoingEvent } from "./sender";
import { commandEventIds, isEventType, subscribableEventTypes } from "./types";

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

/**
 * Leases up to `limit` committed, undispatched events (oldest first) until `leaseUntil`, and
 * returns them with whether each has webhooks / a partner / clients to go to now (the envelope's
 * `routes`). Compiled once per shape (fixedStatement): it runs after every write.
 */
function claimStatement(p: { leaseUntil: Date; limit: number; orgId?: string }) {
  const pending = sql
    .selectFrom("Event")
    .select("id")
    .where("dispatchedAt", "is", null)
    .where((eb) => eb.or([eb("dispatchLeaseUntil", "is", null), eb("dispatchLeaseUntil", "<", eb.fn<Date>("now"))]))
    .$if(p.orgId !== undefined, (q) => q.where("orgId", "=", p.orgId!))
    .orderBy("createdAt")
    .orderBy("id")
    .limit(p.limit)
    .forUpdate()
    .skipLocked();
  return sql
    .updateTable("Event")
    .set({ dispatchLeaseUntil: p.leaseUntil })
    .where("id", "in", pending)
    .returning((eb) => [
      "Event.id",
      "Event.orgId",
      "Event.portalId",
      "Event.type",
      "Event.data",
      "Event.occurredAt",
      "Event.createdAt",
      eb
        .exists(
          eb
            .selectFrom("Webhook as w")
            .select("w.id")
            .whereRef("w.orgId", "=", "Event.orgId")
            .where("w.enabled", "=", true)
            .where((w) => w(w.ref("Event.type"), "=", w.fn.any("w.events"))),
        )
        .as("webhooks"),
      eb
        .exists(eb.selectFrom("PartnerConnection as c").select("c.id").whereRef("c.orgId", "=", "Event.orgId").where("c.status", "=", "connected"))
        .as("partner"),
      eb
        .exists(eb.selectFrom("PortalGuest as g").select("g.id").whereRef("g.portalId", "=", "Event.portalId").where("g.acceptedAt", "is not", null))
        .as("clients"),
    ]);
}

const claimAll = fixedStatement(["leaseUntil", "limit"], (p: { leaseUntil: Date; limit: number }) => claimStatement(p));
const claimOrg = fixedStatement(["leaseUntil", "limit", "orgId"], (p: { leaseUntil: Date; limit: number; orgId: string }) => claimStatement(p));

/** The batch handed over: sent, released. */
const markSent = fixedStatement(["ids", "at"], (p: { ids: string[]; at: Date }) =>
  sql
    .updateTable("Event")
    .set({ dispatchedAt: p.at, lastDispatchError: null, dispatchLeaseUntil: null })
    .where("id", "=", (eb) => eb.fn.any(uuidArray(p.ids))),
);

/** The batch not accepted: the attempt and its error recorded, the rows released for the next run. */
const markFailed = fixedStatement(["ids", "error"], (p: { ids: string[]; error: string }) =>
  sql
    .updateTable("Event")
    .set((eb) => ({ dispatchAttempts: eb("dispatchAttempts", "+", 1), lastDispatchError: p.error, dispatchLeaseUntil: null }))
    .where("id", "=", (eb) => eb.fn.any(uuidArray(p.ids))),
);

type PendingRow = InferResult<ReturnType<typeof claimAll>>[number];

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
 * never exist as rows. Between claim and send, one statement makes the webhook deliveries of the
 * batch's events (planDeliveries), whose starts go in the same send; a repeated hand-off finds
 * the same ones.
 */
export async function dispatchPendingEvents(options: DispatchOptions = {}): Promise<{ sent: number; failed: number }> {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const sendTimeoutMs = options.sendTimeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
  const leaseUntil = new Date(Date.now() + sendTimeoutMs + LEASE_MARGIN_MS);

  // Straight through the pool (lib/sql `rows`), as the marks below: the relay runs after every
  // write, and Prisma's per-statement work cost more than the statements.
  const claimed = await rows(options.orgId === undefined ? claimAll({ leaseUntil, limit }) : claimOrg({ leaseUntil, limit, orgId: options.orgId }));
  if (claimed.length === 0) return { sent: 0, failed: 0 };
  // RETURNING keeps no order; Inngest gets the batch oldest first.
  const batch = claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  const ids = batch.map((r) => r.id);

  try {
    // The webhook deliveries are made here, with the hand-off, and their attempt series start in
    // the same send: no fan-out run per event (three calls of the serve endpoint each).
    const planned = await planDeliveries(batch.filter((r) => r.webhooks && isSubscribable(r.type)).map((r) => r.id));
    const starts = new Map<string, PlannedDelivery[]>();
    for (const d of planned) starts.set(d.eventId, [...(starts.get(d.eventId) ?? []), d]);
    const outgoing = batch.flatMap((row) => [toOutgoingEvent(row), ...(starts.get(row.id) ?? []).map(deliveryStart)]);
    const send = options.send ?? eventSender();
    await withTimeout(send(outgoing), sendTimeoutMs);
  } catch (err) {
    await rows(markFailed({ ids, error: errorText(err) }));
    return { sent: 0, failed: batch.length };
  }
  // One statement marks the whole batch sent.
  await rows(markSent({ ids, at: new Date() }));
  return { sent: batch.length, failed: 0 };
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
    data: {
      event_id: row.id,
      org_id: row.orgId,
      portal_id: row.portalId,
      ...own,
      // The deliveries are made at hand-off (above): nothing is left for the fan-out.
      routes: { webhooks: false, partner: row.partner, clients: row.clients },
    },
    ts: row.occurredAt.getTime(),
  };
}

function isSubscribable(type: string): boolean {
  return (subscribableEventTypes as readonly string[]).includes(type);
}

function isJsonObject(value: unknown): value is Prisma.JsonObject {
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
