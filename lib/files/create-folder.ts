import { requirePortal } from "@/lib/access/policy";
import { actorOf, userIdOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import type { FileEntry } from "@/lib/generated/prisma/client";
import { lockPortal } from "@/lib/portals/lock-portal";
import { checkedName, checkFolderTarget } from "./entry-changes";

/** Creates a folder in a portal (web application): at the root, or inside an active folder of the portal. */
export async function createFolder({
  viewer,
  portalId,
  name,
  parentId = null,
}: {
  viewer: Viewer;
  portalId: string;
  name: string;
  parentId?: string | null;
}): Promise<FileEntry> {
  requirePortal(viewer, portalId, "manageFiles");
  const folderName = checkedName(name);
  const { orgId } = viewer;
  return db.$transaction(async (tx) => {
    await lockPortal(tx, { orgId, portalId });
    await checkFolderTarget(tx, { orgId, portalId, folderId: parentId, field: "parentId" });
    const folder = await tx.fileEntry.create({
      data: { orgId, portalId, parentId, isFolder: true, name: folderName, uploadedById: userIdOf(viewer), registeredAt: new Date() },
    });
    await recordAudit(tx, {
      orgId,
      portalId,
      actor: actorOf(viewer),
      action: "folder.created",
      targetType: "folder",
      targetId: folder.id,
      metadata: { name: folderName, parentId },
    });
    return folder;
  });
}
