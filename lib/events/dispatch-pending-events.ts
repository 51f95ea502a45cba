import type { InferResult } from "kysely";
import type { Prisma } from "@/lib/generated/prisma/client";
import { fixedStatement, rows, sql, uuidArray } from "@/lib/sql";
import { eventSender, type EventSender, type OutgoingEvent } from "./sender";
import { commandEventIds, deliveryRequestId, isEventType } from "./types";

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
 * `routes`) and its webhook deliveries (D20, D21), made in the same statement: one pending delivery
 * per enabled webhook of the event's organization subscribed to its type and created no later
 * than the event. An event's `deliveries` also holds those an earlier hand-off of it made and
 * nothing attempted yet (a relay that stopped after its claim and before its send), so that a
 * repeated hand-off starts the same attempt series under the same ids, which the engine
 * deduplicates; a delivery already under way, finished or redelivered is never started again.
 * Compiled once per shape (fixedStatement): it runs after every write.
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
  return (
    sql
      .with("claimed", (db) =>
        db
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
          ]),
      )
      .with("made", (db) =>
        db
          .insertInto("WebhookDelivery")
          .columns(["id", "webhookId", "eventId", "eventType"])
          .expression((eb) =>
            eb
              .selectFrom("claimed as e")
              .innerJoin("Webhook as w", (j) => j.onRef("w.orgId", "=", "e.orgId"))
              .select((s) => [s.fn<string>("gen_random_uuid").as("id"), "w.id as webhookId", "e.id as eventId", "e.type as eventType"])
              .where("e.webhooks", "=", true)
              .where("w.enabled", "=", true)
              .where((w) => w(w.ref("e.type"), "=", w.fn.any("w.events")))
              .whereRef("w.createdAt", "<=", "e.createdAt"),
          )
          .onConflict((oc) => oc.columns(["webhookId", "eventId"]).doNothing())
          .returning(["id", "webhookId", "eventId"]),
      )
      // Rows made by an earlier hand-off: the statement's snapshot sees them, not the ones `made`
      // adds. One probe of the unique (webhook, event) index for each event and webhook of its
      // organization, as a lateral subquery so that the plan cannot start from the deliveries
      // instead: no index leads with the event, and while the table is small a scan of the pending
      // ones looks cheaper to the planner and then costs a walk of the organization's events for
      // each (seen at 50 ms a hand-off after a few thousand deliveries).
      .with("planned", (db) =>
        db
          .selectFrom("made")
          .select(["made.id", "made.webhookId", "made.eventId"])
          .union((eb) =>
            eb
              .selectFrom("claimed as e")
              .innerJoin("Webhook as w", (j) => j.onRef("w.orgId", "=", "e.orgId"))
              .innerJoinLateral(
                (lateral) =>
                  lateral
                    .selectFrom("WebhookDelivery as d")
                    .select(["d.id", "d.webhookId", "d.eventId"])
                    .whereRef("d.webhookId", "=", "w.id")
                    .whereRef("d.eventId", "=", "e.id")
                    .where("d.status", "=", "pending")
                    .where("d.attemptCount", "=", 0)
                    // One row at most (the pair is unique); the limit also keeps PostgreSQL from
                    // pulling the subquery up into a plain join.
                    .limit(1)
                    .as("d"),
                (j) => j.onTrue(),
              )
              .select(["d.id", "d.webhookId", "d.eventId"])
              .where("e.webhooks", "=", true),
          ),
      )
      // Grouped once and joined, not a subquery per claimed row: PostgreSQL inlines `planned` into
      // such a subquery and would run its union (and the probes) again for every event.
      .selectFrom("claimed")
      .leftJoin(
        (eb) =>
          eb
            .selectFrom("planned")
            .select((agg) => ["planned.eventId", agg.fn.jsonAgg("planned").as("deliveries")])
            .groupBy("planned.eventId")
            .as("p"),
        (j) => j.onRef("p.eventId", "=", "claimed.id"),
      )
      .selectAll("claimed")
      .select("p.deliveries")
  );
}

const claimAll = fixedStatement(["leaseUntil", "limit"], (p: { leaseUntil: Date; limit: number }) => claimStatement(p));
/** One organization's pending events (tests share a database); exported for its plan's test. */
export const claimOrg = fixedStatement(["leaseUntil", "limit", "orgId"], (p: { leaseUntil: Date; limit: number; orgId: string }) => claimStatement(p));

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
 * never exist as rows. The claim also makes the webhook deliveries of the batch's events, whose
 * starts go in the same send; a repeated hand-off finds the same ones.
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
    // The claim made the webhook deliveries; their attempt series start in the same send: no
    // fan-out run per event (three calls of the serve endpoint each).
    const outgoing = batch.flatMap((row) => [toOutgoingEvent(row), ...(row.deliveries ?? []).map((d) => deliveryStart(d.id, d.webhookId))]);
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

/** The start of the attempt series of a delivery the claim made. */
function deliveryStart(deliveryId: string, webhookId: string): OutgoingEvent {
  return {
    id: deliveryRequestId(deliveryId, 1),
    name: "webhook/delivery.requested",
    data: { delivery_id: deliveryId, webhook_id: webhookId, first_attempt: 1 },
  };
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
