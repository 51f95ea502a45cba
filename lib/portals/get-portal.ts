import { db } from "@/lib/db";
import { isUuid } from "@/lib/ids";

/** One active portal of the organization, or null (a malformed or foreign id is simply not found). */
export async function findPortal({ orgId, portalId }: { orgId: string; portalId: string }) {
  if (!isUuid(portalId)) return null;
  return db.portal.findFirst({
    where: { id: portalId, orgId, deletedAt: null },
    include: { workflowState: { select: { id: true, name: true } } },
  });
}
