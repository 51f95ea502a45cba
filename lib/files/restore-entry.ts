import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import type { FileEntry } from "@/lib/generated/prisma/client";
import { descendantIds, lockEntryFor, recordEntryAudit } from "./entry-changes";

/**
 * Restores an entry deleted within the last 30 days (web application), with what was deleted
 * together with it (a folder's contents deleted at the same instant; entries deleted before the
 * folder stay deleted). When its folder is no longer active, it comes back at the portal root.
 */
export async function restoreEntry({ viewer, portalId, fileId }: { viewer: Viewer; portalId: string; fileId: string }): Promise<FileEntry> {
  const { orgId } = viewer;
  return db.$transaction(async (tx) => {
    const entry = await lockEntryFor(tx, viewer, { portalId, fileId, action: "manageFiles", deleted: true });
    const parentActive =
      entry.parentId !== null &&
      (await tx.fileEntry.count({ where: { id: entry.parentId, orgId, isFolder: true, status: "registered", deletedAt: null } })) > 0;
    const parentId = parentActive ? entry.parentId : null;
    const inside = entry.isFolder ? await descendantIds(tx, entry.id) : [];
    if (inside.length > 0) await tx.fileEntry.updateMany({ where: { id: { in: inside }, orgId, deletedAt: entry.deletedAt }, data: { deletedAt: null } });
    const restored = await tx.fileEntry.update({ where: { id: entry.id }, data: { deletedAt: null, parentId } });
    await recordEntryAudit(tx, viewer, entry, "restored", { name: entry.name, parentId });
    return restored;
  });
}
