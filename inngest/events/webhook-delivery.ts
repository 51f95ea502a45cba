import { events } from "@/inngest/client";
import { deliveryRequestId } from "@/lib/events/types";

/**
 * Internal: starts one delivery's attempt series (inngest/functions/webhook-delivery.ts). Sent by
 * the fan-out for each new delivery, and relayed from the outbox for a redelivery (its schema is
 * the catalogue's, lib/events/types.ts). `first_attempt` numbers the series' attempts in the
 * delivery's log (1, or after the attempts already logged).
 */
export const webhookDeliveryRequested = events["webhook/delivery.requested"];

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
    id: deliveryRequestId(deliveryId, firstAttempt),
    name: webhookDeliveryRequested.name,
    data: { delivery_id: deliveryId, webhook_id: webhookId, first_attempt: firstAttempt },
  };
}
