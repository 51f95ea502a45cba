import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import type { FileEntry } from "@/lib/generated/prisma/client";
import { checkedName, entryKind, lockEntryFor } from "./entry-changes";
import { extensionOf } from "./filename";

/**
 * Renames a file or folder (web application) by the README "Files" name rules. A file's
 * extension follows its new name; the same name again writes nothing.
 */
export async function renameEntry({ viewer, portalId, fileId, name }: { viewer: Viewer; portalId: string; fileId: string; name: string }): Promise<FileEntry> {
  const newName = checkedName(name);
  return db.$transaction(async (tx) => {
    const entry = await lockEntryFor(tx, viewer, { portalId, fileId, action: "manageFiles" });
    if (entry.name === newName) return entry;
    const renamed = await tx.fileEntry.update({ where: { id: entry.id }, data: { name: newName, extension: entry.isFolder ? "" : extensionOf(newName) } });
    const kind = entryKind(entry);
    await recordAudit(tx, {
      orgId: viewer.orgId,
      portalId,
      actor: actorOf(viewer),
      action: `${kind}.renamed`,
      targetType: kind,
      targetId: entry.id,
      metadata: { from: entry.name, to: newName },
    });
    return renamed;
  });
}
