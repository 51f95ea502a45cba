import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { accessPortal } from "@/lib/portals/get-portal";

/** A portal's history, newest first (D28); members and admins only, 404 for a portal not theirs. */
export async function listPortalAudit({ viewer, portalId, limit = 100 }: { viewer: Viewer; portalId: string; limit?: number }) {
  await accessPortal(viewer, portalId, "viewHistory");
  return db.auditLog.findMany({
    where: { orgId: viewer.orgId, portalId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
}
