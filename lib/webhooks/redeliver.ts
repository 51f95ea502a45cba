import { requireOrg } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { AppError, conflict, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { inngest } from "@/inngest/client";
import { deliveryRequestedEvent } from "@/inngest/events/webhook-delivery";
import { findDelivery } from "./deliveries";

export interface RedeliverOptions {
  viewer: Viewer;
  webhookId: string;
  deliveryId: string;
}

/**
 * Starts a new attempt series (1 + 3 retries) of a finished delivery: the same delivery, so the
 * same X-Webhook-Delivery-Id (a receiver that already processed it ignores it) and the same
 * event, with attempts numbered on in its log. Its outcome counts in the webhook's counters like
 * any series. Refused (409) while the delivery is pending or the webhook is disabled.
 */
export async function redeliverWebhookDelivery({ viewer, webhookId, deliveryId }: RedeliverOptions) {
  requireOrg(viewer, "manageWebhooks");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  if (!isUuid(webhookId) || !isUuid(deliveryId)) throw notFound("Delivery");
  const started = await db.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.findFirst({
      where: { id: deliveryId, webhookId, webhook: { orgId } },
      select: { status: true, attemptCount: true, completedAt: true, webhook: { select: { enabled: true } } },
    });
    if (!delivery) throw notFound("Delivery");
    if (!delivery.webhook.enabled) throw conflict("The webhook is disabled; enable it before redelivering");
    if (delivery.status === "pending") throw conflict("The delivery is still in progress");
    // Conditional on what was read, so of two concurrent redeliveries one starts.
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, status: delivery.status, attemptCount: delivery.attemptCount },
      data: { status: "pending", completedAt: null },
    });
    if (count === 0) throw conflict("The delivery is still in progress");
    return delivery;
  });

  const firstAttempt = started.attemptCount + 1;
  try {
    await inngest.send(deliveryRequestedEvent({ deliveryId, webhookId, firstAttempt }));
  } catch (e) {
    // Not handed to the job engine: put the delivery back as it was, so it can be tried again.
    await db.webhookDelivery.updateMany({
      where: { id: deliveryId, status: "pending", attemptCount: started.attemptCount },
      data: { status: started.status, completedAt: started.completedAt },
    });
    console.error(`[webhooks] redelivery of ${deliveryId} could not be started:`, e);
    throw new AppError("server_error", "The redelivery could not be started; try again");
  }
  await db.$transaction((tx) =>
    recordAudit(tx, { orgId, actor, action: "webhook_delivery.redelivered", targetType: "webhook_delivery", targetId: deliveryId, metadata: { webhook_id: webhookId, first_attempt: firstAttempt } }),
  );
  const delivery = await findDelivery({ viewer, webhookId, deliveryId });
  if (!delivery) throw notFound("Delivery");
  return delivery;
}
