import { fileWhere } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { accessPortal } from "@/lib/access/access-portal";

/** The registered, not deleted entries directly inside a folder (null: the portal root). */
export async function listFolder({ viewer, portalId, folderId }: { viewer: Viewer; portalId: string; folderId: string | null }) {
  await accessPortal(viewer, portalId, "listFiles");
  // A folder id of another portal or organization (or of a file) names nothing here: not_found,
  // not an empty folder (the cross-organization sweep found the page answering 200 for one).
  if (folderId !== null && (await db.fileEntry.count({ where: { id: folderId, portalId, orgId: viewer.orgId, isFolder: true } })) === 0) {
    throw notFound("Folder");
  }
  return db.fileEntry.findMany({
    where: { AND: [fileWhere(viewer, "listFiles"), { portalId, parentId: folderId }] },
    orderBy: [{ isFolder: "desc" }, { name: "asc" }],
  });
}
