import { requireOrg } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { conflict, notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/events/record-event";
import { withChange } from "@/lib/events/with-change";
import { isUuid } from "@/lib/ids";
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
 *
 * The status change, the audit row and the `webhook/delivery.requested` command commit together
 * through the outbox (D22): the relay hands the command to the job engine after the commit, and
 * again after a crash or while the engine is unreachable, so a delivery never stays pending with
 * no run behind it.
 */
export async function redeliverWebhookDelivery({ viewer, webhookId, deliveryId }: RedeliverOptions) {
  requireOrg(viewer, "manageWebhooks");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  if (!isUuid(webhookId) || !isUuid(deliveryId)) throw notFound("Delivery");
  await withChange(async (tx) => {
    const delivery = await tx.webhookDelivery.findFirst({
      where: { id: deliveryId, webhookId, webhook: { orgId } },
      select: { status: true, attemptCount: true, webhook: { select: { enabled: true } } },
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
    const firstAttempt = delivery.attemptCount + 1;
    await recordAudit(tx, {
      orgId,
      actor,
      action: "webhook_delivery.redelivered",
      targetType: "webhook_delivery",
      targetId: deliveryId,
      metadata: { webhook_id: webhookId, first_attempt: firstAttempt },
    });
    await recordEvent(tx, { orgId, type: "webhook/delivery.requested", data: { delivery_id: deliveryId, webhook_id: webhookId, first_attempt: firstAttempt } });
  });
  const delivery = await findDelivery({ viewer, webhookId, deliveryId });
  if (!delivery) throw notFound("Delivery");
  return delivery;
}
