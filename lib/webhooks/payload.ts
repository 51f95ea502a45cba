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
  /**
   * The event's portal as it is now, read by the caller with the delivery (one statement, issue
   * 17); null when the event has none, or it is gone or in another organization.
   */
  portal: { name: string; externalIds: readonly (readonly [system: string, value: string])[] } | null;
}

export function buildPayload(source: PayloadSource, now: Date = new Date()): Record<string, unknown> {
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
  const portal = event.portalId ? source.portal : null;
  const common: Record<string, unknown> = {
    event: source.eventType,
    event_id: event.id,
    org_id: source.orgId,
    portal_id: event.portalId,
    portal_name: portal?.name ?? null,
    external_system_ids: Object.fromEntries(portal?.externalIds ?? []),
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
