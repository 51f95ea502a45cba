import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { descendantIds, lockEntryFor, recordEntryAudit } from "./entry-changes";

/**
 * Deletes a file or folder softly (web application): it leaves every listing, the API's
 * included, and can be restored for 30 days. A folder's active contents, at every depth, are
 * deleted with it at the same instant (that instant is what restoring the folder brings back).
 * Members delete any entry; a guest with the `delete` permission only their own uploads.
 */
export async function deleteEntry({ viewer, portalId, fileId }: { viewer: Viewer; portalId: string; fileId: string }): Promise<{ deleted: number }> {
  const { orgId } = viewer;
  return db.$transaction(async (tx) => {
    const entry = await lockEntryFor(tx, viewer, { portalId, fileId, action: "deleteOwnUpload" });
    const deletedAt = new Date();
    const inside = entry.isFolder ? await descendantIds(tx, entry.id) : [];
    const { count } = await tx.fileEntry.updateMany({
      where: { id: { in: [entry.id, ...inside] }, orgId, status: "registered", deletedAt: null },
      data: { deletedAt },
    });
    await recordEntryAudit(tx, viewer, entry, "deleted", { name: entry.name, entries: count });
    return { deleted: count };
  });
}
