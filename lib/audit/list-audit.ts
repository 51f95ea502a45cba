import { db } from "@/lib/db";

/** A portal's history, newest first (D28). */
export async function listPortalAudit({ orgId, portalId, limit = 100 }: { orgId: string; portalId: string; limit?: number }) {
  return db.auditLog.findMany({
    where: { orgId, portalId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
}
