import { inngest } from "@/inngest/client";
import { webhookDeliveryRequested } from "@/inngest/events/webhook-delivery";
import { webhookDelivery } from "@/inngest/functions/webhook-delivery";
import { finishDelivery } from "@/lib/webhooks/finish-delivery";

/**
 * When the engine gives up on a webhook-delivery run (its retries exhausted by an infrastructure
 * fault), the delivery ends as failed and counts, so it does not stay pending: it can then be
 * redelivered. (A function of its own on `inngest/function.failed` rather than an onFailure
 * handler, so that every served function is listed in inngest/functions.)
 */
export const webhookDeliveryFailed = inngest.createFunction(
  {
    id: "webhook-delivery-failed",
    triggers: [{ event: "inngest/function.failed", if: `event.data.function_id == '${webhookDelivery.id(inngest.id)}'` }],
  },
  async ({ event, step }) => {
    const failed = webhookDeliveryRequested.schema.safeParse((event.data as { event?: { data?: unknown } }).event?.data);
    if (!failed.success) return { ended: false };
    const { delivery_id: deliveryId, webhook_id: webhookId } = failed.data;
    const ended = await step.run("end-delivery", () => finishDelivery({ deliveryId, webhookId, status: "failed", count: true }));
    return { ended };
  },
);
