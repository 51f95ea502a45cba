import { db } from "@/lib/db";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** One active portal of the organization, or null (a malformed or foreign id is simply not found). */
export async function findPortal({ orgId, portalId }: { orgId: string; portalId: string }) {
  if (!isUuid(portalId)) return null;
  return db.portal.findFirst({
    where: { id: portalId, orgId, deletedAt: null },
    include: { workflowState: { select: { id: true, name: true } } },
  });
}
