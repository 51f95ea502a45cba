import { eventType } from "inngest";
import { z } from "zod";

/**
 * Internal: starts one delivery's attempt series (inngest/functions/webhook-delivery.ts). Sent by
 * the fan-out for each new delivery and by a redelivery. `first_attempt` numbers the series'
 * attempts in the delivery's log (1, or after the attempts already logged).
 */
export const webhookDeliveryRequested = eventType("webhook/delivery.requested", {
  schema: z.object({
    delivery_id: z.uuid(),
    /** The concurrency key: one webhook's deliveries queue behind each other, not behind others'. */
    webhook_id: z.uuid(),
    first_attempt: z.int().positive(),
  }),
});

export interface DeliveryRequest {
  deliveryId: string;
  webhookId: string;
  firstAttempt: number;
}

/**
 * The event for one attempt series. Its id makes a repeated send (a retried fan-out step, a
 * double-clicked redelivery) start one run only: Inngest drops events whose id it has seen in the
 * last 24 hours.
 */
export function deliveryRequestedEvent({ deliveryId, webhookId, firstAttempt }: DeliveryRequest) {
  return {
    id: `webhook-delivery-${deliveryId}-${firstAttempt}`,
    name: webhookDeliveryRequested.name,
    data: { delivery_id: deliveryId, webhook_id: webhookId, first_attempt: firstAttempt },
  };
}
