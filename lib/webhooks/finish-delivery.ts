import { db } from "@/lib/db";

/**
 * Ends a delivery. Only a pending delivery changes, so the webhook's counter moves exactly once
 * per outcome however often this runs (D20: engine retries, a duplicate run). `count: false` for
 * test sends and for deliveries stopped because the webhook was disabled: neither is an outcome of
 * the receiver's.
 */
export async function finishDelivery({
  deliveryId,
  webhookId,
  status,
  count,
}: {
  deliveryId: string;
  webhookId: string;
  status: "succeeded" | "failed";
  count: boolean;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count: changed } = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, status: "pending" },
      data: { status, completedAt: new Date() },
    });
    if (changed === 1 && count) {
      await tx.webhook.updateMany({
        where: { id: webhookId },
        data: status === "succeeded" ? { successCount: { increment: 1 } } : { failureCount: { increment: 1 } },
      });
    }
    return changed === 1;
  });
}
