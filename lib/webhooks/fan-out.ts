import { db } from "@/lib/db";
import { rows, sql } from "@/lib/sql";
import { subscribableEventTypes } from "@/lib/events/types";

export interface CreatedDelivery {
  deliveryId: string;
  webhookId: string;
}

/**
 * One pending delivery per enabled webhook of the organization subscribed to the event's type
 * (webhooks created after the event was recorded excluded). Idempotent: the unique (webhook,
 * event) pair means a repeated call creates nothing new and returns the same delivery ids. Only
 * deliveries not attempted yet are returned: one already under way (or finished, or redelivered)
 * is never started again.
 */
export async function createDeliveriesForEvent({ orgId, eventId }: { orgId: string; eventId: string }): Promise<CreatedDelivery[]> {
  const event = await db.event.findFirst({ where: { id: eventId, orgId }, select: { id: true, type: true, createdAt: true } });
  if (!event || !(subscribableEventTypes as readonly string[]).includes(event.type)) return [];
  const webhooks = await db.webhook.findMany({
    where: { orgId, enabled: true, events: { has: event.type }, createdAt: { lte: event.createdAt } },
    select: { id: true },
  });
  if (webhooks.length > 0) {
    await db.webhookDelivery.createMany({
      data: webhooks.map((w) => ({ webhookId: w.id, eventId: event.id, eventType: event.type })),
      skipDuplicates: true,
    });
  }
  const deliveries = await db.webhookDelivery.findMany({
    where: { eventId: event.id, status: "pending", attemptCount: 0, webhook: { orgId } },
    select: { id: true, webhookId: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return deliveries.map((d) => ({ deliveryId: d.id, webhookId: d.webhookId }));
}

/**
 * Whether createDeliveriesForEvent can have anything to do for this event, in one cheap query: an
 * enabled webhook of the organization subscribed to its type, or a delivery of it already made
 * (a repeated run must find its deliveries again, even if the webhook was disabled since). The
 * fan-out asks it before any step, so that an organization without webhooks (most events) costs
 * one query and one call of the function, not a step and its checkpoint. It may say
 * yes when the step then finds nothing (webhooks created after the event); it never says no when
 * the step would find something.
 */
export async function mayHaveDeliveries({ orgId, eventId, type }: { orgId: string; eventId: string; type: string }): Promise<boolean> {
  const [row] = await rows(
    sql.selectNoFrom((eb) =>
      eb
        .exists(
          eb
            .selectFrom("Webhook as w")
            .select("w.id")
            .where("w.orgId", "=", orgId)
            .where((w) =>
              w.or([
                w.and([w("w.enabled", "=", true), w(w.val(type), "=", w.fn.any("w.events"))]),
                w.exists(w.selectFrom("WebhookDelivery as d").select("d.id").whereRef("d.webhookId", "=", "w.id").where("d.eventId", "=", eventId)),
              ]),
            ),
        )
        .as("any"),
    ),
  );
  return row?.any === true;
}
