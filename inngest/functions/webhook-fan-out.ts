import { inngest, routedTrigger } from "@/inngest/client";
import { deliveryRequestedEvent } from "@/inngest/events/webhook-delivery";
import { createDeliveriesForEvent, mayHaveDeliveries } from "@/lib/webhooks/fan-out";

/**
 * The relay makes an event's deliveries itself when it hands the event over, and starts them in
 * the same send (lib/events/dispatch-pending-events.ts), marking `routes.webhooks` false; this
 * function is for an event handed over without them (`routes.webhooks` true or absent). It does
 * the same: every relayed event of a subscribable type becomes one delivery per enabled webhook of
 * its organization subscribed to it, and each delivery starts its own run of webhook-delivery.
 * A repeated run (engine retry, the same event handed over twice) finds the same deliveries
 * (unique per webhook and event) and sends the same event ids, which Inngest deduplicates.
 * It starts only for events the relay found a subscribed webhook for (routedTrigger: an
 * organization without webhooks costs no run). Without a subscribed webhook (and no delivery of
 * the event yet) it returns before any step: one query, one call (mayHaveDeliveries). The check is repeated on every call of a run, and
 * once the step has made deliveries it stays true, so a replay never skips what a step did.
 */
export const webhookFanOut = inngest.createFunction(
  {
    id: "webhook-fan-out",
    triggers: [
      routedTrigger("portal.created", "webhooks"),
      routedTrigger("portal.workflow_changed", "webhooks"),
      routedTrigger("file.uploaded", "webhooks"),
      routedTrigger("file.signed", "webhooks"),
      routedTrigger("task.created", "webhooks"),
      routedTrigger("task.completed", "webhooks"),
      routedTrigger("guest.invited", "webhooks"),
    ],
    retries: 5,
  },
  async ({ event, step }) => {
    const target = { orgId: event.data.org_id, eventId: event.data.event_id, type: event.name };
    if (!(await mayHaveDeliveries(target))) return { deliveries: [] };
    const deliveries = await step.run("create-deliveries", () => createDeliveriesForEvent({ orgId: event.data.org_id, eventId: event.data.event_id }));
    if (deliveries.length > 0) {
      await step.sendEvent(
        "start-deliveries",
        deliveries.map((d) => deliveryRequestedEvent({ ...d, firstAttempt: 1 })),
      );
    }
    return { deliveries: deliveries.map((d) => d.deliveryId) };
  },
);
