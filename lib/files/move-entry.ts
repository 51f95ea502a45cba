import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { invalidRequest } from "@/lib/errors";
import type { FileEntry } from "@/lib/generated/prisma/client";
import { checkFolderTarget, descendantIds, lockEntryFor, recordEntryAudit } from "./entry-changes";

/**
 * Moves a file or folder within its portal (web application) into an active folder of the same
 * portal, or to the root (null). A folder never goes into itself or one of its descendants.
 * Moving to where it already is writes nothing.
 */
export async function moveEntry({
  viewer,
  portalId,
  fileId,
  parentId,
}: {
  viewer: Viewer;
  portalId: string;
  fileId: string;
  parentId: string | null;
}): Promise<FileEntry> {
  const { orgId } = viewer;
  return db.$transaction(async (tx) => {
    const entry = await lockEntryFor(tx, viewer, { portalId, fileId, action: "manageFiles" });
    if (entry.parentId === parentId) return entry;
    if (entry.isFolder && parentId !== null && (parentId === entry.id || (await descendantIds(tx, entry.id)).includes(parentId))) {
      throw invalidRequest("parentId: A folder cannot be moved into itself or one of its folders");
    }
    await checkFolderTarget(tx, { orgId, portalId, folderId: parentId, field: "parentId" });
    const moved = await tx.fileEntry.update({ where: { id: entry.id }, data: { parentId } });
    await recordEntryAudit(tx, viewer, entry, "moved", { name: entry.name, from: entry.parentId, to: parentId });
    return moved;
  });
}
