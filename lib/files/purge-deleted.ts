import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { deleteObject } from "@/lib/storage/objects";
import { deletedRoots, descendantIds, entryKind, RESTORE_WINDOW_MS, type DeletedRoot } from "./entry-changes";

/**
 * Nightly: entries deleted more than 30 days ago are removed for good with their stored objects,
 * a folder with everything inside it (pending uploads included). Objects go first, so a storage
 * failure leaves the rows for the next run rather than objects nobody knows about. One audit row
 * `file.purged` / `folder.purged` per entry removed this way (its contents counted in it).
 */
export async function purgeDeletedEntries({ now = new Date(), batch = 200 }: { now?: Date; batch?: number } = {}): Promise<{ purged: number }> {
  const before = new Date(now.getTime() - RESTORE_WINDOW_MS);
  let purged = 0;
  for (;;) {
    const rows = await deletedRoots(db, { before, limit: batch });
    for (const row of rows) purged += await purgeEntry(row);
    if (rows.length < batch) return { purged };
  }
}

async function purgeEntry(entry: DeletedRoot): Promise<number> {
  const ids = [entry.id, ...(entry.isFolder ? await descendantIds(db, entry.id) : [])];
  const objects = await db.fileEntry.findMany({ where: { id: { in: ids }, storageKey: { not: null } }, select: { storageKey: true } });
  for (const { storageKey } of objects) await deleteObject(storageKey!);
  return db.$transaction(async (tx) => {
    const { count } = await tx.fileEntry.deleteMany({ where: { id: { in: ids } } });
    if (count === 0) return 0; // purged meanwhile by another run
    const kind = entryKind(entry);
    await recordAudit(tx, {
      orgId: entry.orgId,
      portalId: entry.portalId,
      actor: { type: "system" },
      action: `${kind}.purged`,
      targetType: kind,
      targetId: entry.id,
      metadata: { name: entry.name, entries: count },
    });
    return 1;
  });
}
