import { db } from "@/lib/db";

/** The registered, not deleted entries directly inside a folder (null: the portal root). */
export async function listFolder({ orgId, portalId, folderId }: { orgId: string; portalId: string; folderId: string | null }) {
  return db.fileEntry.findMany({
    where: { orgId, portalId, parentId: folderId, status: "registered", deletedAt: null },
    orderBy: [{ isFolder: "desc" }, { name: "asc" }],
  });
}
