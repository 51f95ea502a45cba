import { rows, sql } from "@/lib/sql";

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
  // One statement: the webhook's row, which every delivery of the webhook updates, is
  // locked only for the statement, not across round trips of a transaction.
  const now = new Date().toISOString();
  const counter = status === "succeeded" ? "successCount" : "failureCount";
  const [row] = await rows(
    sql
      .with("done", (q) =>
        q.updateTable("WebhookDelivery").set({ status, completedAt: now }).where("id", "=", deliveryId).where("status", "=", "pending").returning("id"),
      )
      .with("counted", (q) =>
        q
          .updateTable("Webhook")
          .set((eb) => ({ [counter]: eb(counter, "+", 1), updatedAt: now }))
          .where("id", "=", webhookId)
          .where((eb) => eb.and([eb(eb.val(count), "=", true), eb.exists(eb.selectFrom("done").select("id"))]))
          .returning("id"),
      )
      .selectFrom("done")
      .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("changed")),
  );
  return row?.changed === 1;
}
