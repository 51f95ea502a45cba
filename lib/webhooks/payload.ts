import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

// The flat JSON body of a delivery (spec section 6, D21): the common fields, `event_id`, then the
// event's own fields as recorded. Built again at every attempt: `timestamp` is the attempt time,
// and the portal's name and external ids are read as they are now.

export const TEST_EVENT = "webhook.test";

export interface PayloadSource {
  deliveryId: string;
  webhookId: string;
  orgId: string;
  eventType: string;
  deliveryCreatedAt: Date;
  /** The outbox row; null for test sends. */
  event: { id: string; portalId: string | null; data: Prisma.JsonValue; occurredAt: Date } | null;
}

export async function buildPayload(source: PayloadSource, now: Date = new Date()): Promise<Record<string, unknown>> {
  const { event } = source;
  if (!event) {
    // D21: webhook.test has no portal; its event is the test itself, so event_id is the delivery id.
    return {
      event: TEST_EVENT,
      event_id: source.deliveryId,
      org_id: source.orgId,
      portal_id: null,
      portal_name: null,
      external_system_ids: {},
      timestamp: now.toISOString(),
      occurred_at: source.deliveryCreatedAt.toISOString(),
      webhook_id: source.webhookId,
    };
  }
  const portal = event.portalId
    ? await db.portal.findFirst({
        where: { id: event.portalId, orgId: source.orgId },
        select: { name: true, externalIds: { select: { system: true, value: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] } },
      })
    : null;
  const common: Record<string, unknown> = {
    event: source.eventType,
    event_id: event.id,
    org_id: source.orgId,
    portal_id: event.portalId,
    portal_name: portal?.name ?? null,
    external_system_ids: Object.fromEntries((portal?.externalIds ?? []).map((x) => [x.system, x.value])),
    timestamp: now.toISOString(),
    occurred_at: event.occurredAt.toISOString(),
  };
  const own = isObject(event.data) ? event.data : {};
  // The common fields come first and cannot be overridden by the event's own.
  return { ...common, ...Object.fromEntries(Object.entries(own).filter(([key]) => !(key in common))) };
}

function isObject(value: Prisma.JsonValue): value is Prisma.JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
