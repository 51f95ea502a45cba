import { randomUUID } from "node:crypto";
import { InngestTestEngine } from "@inngest/test";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { recordEvent } from "@/lib/events/record-event";
import type { EventData, SubscribableEventType } from "@/lib/events/types";
import { createApiContext } from "@/lib/test-support/fixtures";
import { webhookDelivery } from "@/inngest/functions/webhook-delivery";
import { webhookFanOut } from "@/inngest/functions/webhook-fan-out";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { subscribableEventTypes } from "@/lib/events/types";

// Fixtures of the webhook integration tests: an organization with API access and a portal,
// webhooks made through the domain function, events recorded as the product records them, and
// the two Inngest functions driven by @inngest/test.

export async function createWebhookContext() {
  const ctx = await createApiContext();
  const portal = await db.portal.create({ data: { orgId: ctx.org.id, name: `Portal ${randomUUID()}` } });
  const actor = { type: "user" as const, userId: ctx.user.id };
  // The admin as the web application sees them (no OAuth client), for calling domain functions.
  const viewer = await getUserViewer(ctx.user.id, ctx.org.id);
  return { ...ctx, portal, actor, viewer };
}
export type WebhookContext = Awaited<ReturnType<typeof createWebhookContext>>;

export function addWebhook(ctx: WebhookContext, url: string, events: readonly SubscribableEventType[] = subscribableEventTypes) {
  return createWebhook({ viewer: ctx.viewer, url, events });
}

export function guestInvited(overrides: Partial<EventData<"guest.invited">> = {}): EventData<"guest.invited"> {
  return { guest_email: "guest@example.com", guest_name: "Gina Guest", invited_by: null, ...overrides };
}

/** Commits an event to the outbox as a domain function would, beside its change. */
export async function recordTestEvent<T extends SubscribableEventType>(ctx: WebhookContext, type: T, data: EventData<T>) {
  const { id } = await db.$transaction((tx) => recordEvent(tx, { orgId: ctx.org.id, portalId: ctx.portal.id, type, data }));
  return db.event.findUniqueOrThrow({ where: { id } });
}

/** The Inngest event the relay makes of an outbox row (lib/events/dispatch-pending-events.ts). */
export function relayedEvent(row: { id: string; orgId: string; portalId: string | null; type: string; data: unknown }) {
  return {
    id: row.id,
    name: row.type,
    data: { event_id: row.id, org_id: row.orgId, portal_id: row.portalId, ...(row.data as Record<string, unknown>) },
  };
}

/** Runs the fan-out for an event as Inngest hands it over (step.sendEvent really sends). */
export function runFanOut(event: { id: string; name: string; data: Record<string, unknown> }) {
  return new InngestTestEngine({ function: webhookFanOut, events: [event] }).execute();
}

export type DeliveryRequest = { delivery_id: string; webhook_id: string; first_attempt: number };

/**
 * Runs a delivery with its sleeps mocked (they return at once) and its attempts real. `between`
 * runs in place of sleep-n, e.g. to disable the webhook before attempt n + 1.
 */
export async function runDelivery(data: DeliveryRequest, between: Partial<Record<1 | 2 | 3, () => unknown>> = {}) {
  const run = await runDeliveries([data], between);
  // This delivery's own outcome, as the run reports it for each of its deliveries.
  const own = (run.result as { deliveries?: Array<{ delivery_id: string }> } | undefined)?.deliveries?.find((d) => d.delivery_id === data.delivery_id);
  const { delivery_id: _id, ...result } = own ?? { delivery_id: "" };
  return { ...run, result: own ? result : run.result };
}

/** One run of the delivery function for a batch of delivery starts (the engine gathers them per webhook). */
export function runDeliveries(data: DeliveryRequest[], between: Partial<Record<1 | 2 | 3, () => unknown>> = {}) {
  const sleeps = ([1, 2, 3] as const).map((n) => ({ id: `sleep-${n}`, handler: async () => void (await between[n]?.()) }));
  return new InngestTestEngine({
    function: webhookDelivery,
    events: data.map((d) => ({ name: "webhook/delivery.requested", data: d })) as [{ name: string; data: DeliveryRequest }],
    steps: sleeps,
  }).execute();
}

/** The deliveries the fan-out made for an event, and the request to start each. */
export async function deliveriesOf(eventId: string): Promise<DeliveryRequest[]> {
  const rows = await db.webhookDelivery.findMany({ where: { eventId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map((d) => ({ delivery_id: d.id, webhook_id: d.webhookId, first_attempt: 1 }));
}
