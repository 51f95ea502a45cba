import { fixedStatement, rows, sql, uuidArray } from "@/lib/sql";
import { deliveryRequestId } from "./types";
import type { OutgoingEvent } from "./sender";

export interface PlannedDelivery {
  deliveryId: string;
  webhookId: string;
  eventId: string;
}

/**
 * The webhook deliveries of events being handed over, made at hand-off (D20, D21): one pending
 * delivery per enabled webhook of the event's organization subscribed to its type and created no
 * later than the event, in one statement for the whole batch. Returns every delivery of these
 * events not attempted yet, the ones this call made and the ones an earlier hand-off of the same
 * events made (a relay that stopped after planning and before its send), so that a repeated
 * hand-off starts the same attempt series under the same ids, which the engine deduplicates. A
 * delivery already under way, finished or redelivered is never started again.
 */
export async function planDeliveries(eventIds: readonly string[]): Promise<PlannedDelivery[]> {
  if (eventIds.length === 0) return [];
  const planned = await rows(planStatement({ eventIds: [...eventIds] }));
  return planned.map((d) => ({ deliveryId: d.deliveryId, webhookId: d.webhookId, eventId: d.eventId! }));
}

/** Compiled once (fixedStatement): the relay sends it with every hand-off that has webhooks to serve. */
const planStatement = fixedStatement(["eventIds"], (p: { eventIds: string[] }) =>
  sql
    .with("made", (db) =>
      db
        .insertInto("WebhookDelivery")
        .columns(["id", "webhookId", "eventId", "eventType"])
        .expression((eb) =>
          eb
            .selectFrom("Event as e")
            .innerJoin("Webhook as w", (j) => j.onRef("w.orgId", "=", "e.orgId"))
            .select((s) => [s.fn<string>("gen_random_uuid").as("id"), "w.id as webhookId", "e.id as eventId", "e.type as eventType"])
            .where("e.id", "=", (w) => w.fn.any(uuidArray(p.eventIds)))
            .where("w.enabled", "=", true)
            .where((w) => w(w.ref("e.type"), "=", w.fn.any("w.events")))
            .whereRef("w.createdAt", "<=", "e.createdAt"),
        )
        .onConflict((oc) => oc.columns(["webhookId", "eventId"]).doNothing())
        .returning(["id", "webhookId", "eventId"]),
    )
    .selectFrom("made")
    .select(["made.id as deliveryId", "made.webhookId", "made.eventId"])
    // Rows made by an earlier hand-off: the statement's snapshot sees them, not the ones `made` adds.
    // One probe of the unique (webhook, event) index for each event and webhook of its
    // organization, as a lateral subquery so that the plan cannot start from the deliveries instead:
    // no index leads with the event, and while the table is small a scan of the pending ones looks
    // cheaper to the planner and then costs a walk of the organization's events for each (seen at
    // 50 ms a hand-off after a few thousand deliveries).
    .union((eb) =>
      eb
        .selectFrom("Event as e")
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
              // One row at most (the pair is unique); the limit also keeps PostgreSQL from pulling
              // the subquery up into a plain join.
              .limit(1)
              .as("d"),
          (j) => j.onTrue(),
        )
        .select(["d.id as deliveryId", "d.webhookId", "d.eventId"])
        .where("e.id", "=", (w) => w.fn.any(uuidArray(p.eventIds))),
    ),
);

/** The start of one planned delivery's attempt series, as the fan-out would send it. */
export function deliveryStart(d: PlannedDelivery): OutgoingEvent {
  return {
    id: deliveryRequestId(d.deliveryId, 1),
    name: "webhook/delivery.requested",
    data: { delivery_id: d.deliveryId, webhook_id: d.webhookId, first_attempt: 1 },
  };
}
