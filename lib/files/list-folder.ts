import { fileWhere } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { accessPortal } from "@/lib/portals/get-portal";

/** The registered, not deleted entries directly inside a folder (null: the portal root). */
export async function listFolder({ viewer, portalId, folderId }: { viewer: Viewer; portalId: string; folderId: string | null }) {
  await accessPortal(viewer, portalId, "listFiles");
  return db.fileEntry.findMany({
    where: { AND: [fileWhere(viewer, "listFiles"), { portalId, parentId: folderId }] },
    orderBy: [{ isFolder: "desc" }, { name: "asc" }],
  });
}
