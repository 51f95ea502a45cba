import { requireOrg } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";

/**
 * The PDFs a request sent to many portals can ask to sign: those kept in the organization's
 * templates (its document library), by name. Each portal gets its own copy when its task is made.
 */
export async function listRequestDocuments({ viewer }: { viewer: Viewer }) {
  requireOrg(viewer, "sendBulkRequests");
  const files = await db.fileEntry.findMany({
    where: {
      orgId: viewer.orgId,
      isFolder: false,
      status: "registered",
      deletedAt: null,
      portal: { isTemplate: true, deletedAt: null },
      OR: [{ extension: "pdf" }, { contentType: { startsWith: "application/pdf" } }],
    },
    select: { id: true, name: true, portal: { select: { name: true } } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: 500,
  });
  return files.map((f) => ({ id: f.id, name: `${f.name} (${f.portal.name})` }));
}
