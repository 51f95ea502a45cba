import { events, inngest } from "@/inngest/client";
import { deliveryRequestedEvent } from "@/inngest/events/webhook-delivery";
import { createDeliveriesForEvent } from "@/lib/webhooks/fan-out";

/**
 * Every relayed event of a subscribable type becomes one delivery per enabled webhook of its
 * organization subscribed to it, and each delivery starts its own run of webhook-delivery.
 * A repeated run (engine retry, the same event handed over twice) finds the same deliveries
 * (unique per webhook and event) and sends the same event ids, which Inngest deduplicates.
 */
export const webhookFanOut = inngest.createFunction(
  {
    id: "webhook-fan-out",
    triggers: [
      events["portal.created"],
      events["portal.workflow_changed"],
      events["file.uploaded"],
      events["file.signed"],
      events["task.created"],
      events["task.completed"],
      events["guest.invited"],
    ],
    retries: 5,
  },
  async ({ event, step }) => {
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
