import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

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
  // One statement (issue 17): the webhook's row, which every delivery of the webhook updates, is
  // locked only for the statement, not across round trips of a transaction.
  const now = new Date().toISOString();
  const counter = status === "succeeded" ? Prisma.raw('"successCount"') : Prisma.raw('"failureCount"');
  const [row] = await db.$queryRaw<{ changed: number }[]>`
    WITH done AS (
      UPDATE "WebhookDelivery" SET "status" = ${status}::"DeliveryStatus", "completedAt" = ${now}::timestamp
      WHERE "id" = ${deliveryId}::uuid AND "status" = 'pending'
      RETURNING "id"
    ), counted AS (
      UPDATE "Webhook" SET ${counter} = ${counter} + 1, "updatedAt" = ${now}::timestamp
      WHERE "id" = ${webhookId}::uuid AND ${count}::boolean AND EXISTS (SELECT 1 FROM done)
    )
    SELECT count(*)::int AS "changed" FROM done`;
  return row?.changed === 1;
}
