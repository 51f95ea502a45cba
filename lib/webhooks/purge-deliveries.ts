import { db } from "@/lib/db";
import { DELIVERY_RETENTION_DAYS } from "./config";

/**
 * Deletes deliveries (with their attempts) that finished more than 30 days ago, and those stuck
 * unfinished for as long with no attempt since. Returns how many went.
 */
export async function purgeWebhookDeliveries(now: Date = new Date()): Promise<{ deliveries: number }> {
  const cutoff = new Date(now.getTime() - DELIVERY_RETENTION_DAYS * 24 * 3600 * 1000);
  const { count } = await db.webhookDelivery.deleteMany({
    where: {
      // A delivery finishes after it is made, so every one to go was made before the cutoff too:
      // the condition lets the purge read the (createdAt) index instead of the whole table.
      createdAt: { lt: cutoff },
      OR: [{ completedAt: { lt: cutoff } }, { completedAt: null, attempts: { none: { startedAt: { gte: cutoff } } } }],
    },
  });
  return { deliveries: count };
}
