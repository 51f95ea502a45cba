import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import type { FileEntry } from "@/lib/generated/prisma/client";
import { checkedName, lockEntryFor, recordEntryAudit } from "./entry-changes";
import { extensionOf } from "./filename";

/**
 * Renames a file or folder (web application) by docs/decisions.md "Files" name rules. A file's
 * extension follows its new name; the same name again writes nothing.
 */
export async function renameEntry({ viewer, portalId, fileId, name }: { viewer: Viewer; portalId: string; fileId: string; name: string }): Promise<FileEntry> {
  const newName = checkedName(name);
  return db.$transaction(async (tx) => {
    const entry = await lockEntryFor(tx, viewer, { portalId, fileId, action: "manageFiles" });
    if (entry.name === newName) return entry;
    const renamed = await tx.fileEntry.update({ where: { id: entry.id }, data: { name: newName, extension: entry.isFolder ? "" : extensionOf(newName) } });
    await recordEntryAudit(tx, viewer, entry, "renamed", { from: entry.name, to: newName });
    return renamed;
  });
}
