import { db } from "@/lib/db";
import { utcDay } from "./rate-limit";

/**
 * Deletes what the wrapper no longer needs: Idempotency-Key records past their 24 hours and
 * rate-limit counters of days before yesterday. Meant for a daily scheduled job; nothing breaks
 * without it (expired keys are also replaced on reuse), the tables only grow.
 */
export async function purgeApiBookkeeping(now = new Date()): Promise<{ idempotencyRecords: number; rateLimitCounters: number }> {
  const dayBeforeYesterday = new Date(utcDay(now).getTime() - 86_400_000);
  const [idempotency, counters] = await Promise.all([
    db.idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } }),
    db.rateLimitCounter.deleteMany({ where: { day: { lt: dayBeforeYesterday } } }),
  ]);
  return { idempotencyRecords: idempotency.count, rateLimitCounters: counters.count };
}
