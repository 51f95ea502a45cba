import { db } from "@/lib/db";
import { deleteObject } from "@/lib/storage/objects";

/** Pending two-step uploads are removed, with any bytes they received, a day after they began. */
const PENDING_RETENTION_MS = 24 * 3600 * 1000;

/**
 * Deletes pending uploads created more than a day ago, and their storage objects (object first:
 * a failure leaves the row for the next run rather than an object nobody knows about). A row
 * completed meanwhile is left alone: the delete is conditional on it still being pending.
 */
export async function cleanupPendingUploads({ now = new Date(), batch = 500 }: { now?: Date; batch?: number } = {}): Promise<{ removed: number }> {
  const before = new Date(now.getTime() - PENDING_RETENTION_MS);
  let removed = 0;
  for (;;) {
    const rows = await db.fileEntry.findMany({
      where: { status: "pending", createdAt: { lt: before } },
      select: { id: true, storageKey: true },
      orderBy: { createdAt: "asc" },
      take: batch,
    });
    if (rows.length === 0) return { removed };
    for (const row of rows) {
      if (row.storageKey) await deleteObject(row.storageKey);
      const { count } = await db.fileEntry.deleteMany({ where: { id: row.id, status: "pending" } });
      removed += count;
    }
    if (rows.length < batch) return { removed };
  }
}
