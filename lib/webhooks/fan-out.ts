import { db } from "@/lib/db";
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
