import { requireOrg } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db, runInTransaction } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { RequestSpecSchema } from "./schemas";

const ITEM_ORDER = { failed: 0, skipped: 1, pending: 2, sent: 3 } as const;

export interface BulkCounts {
  total: number;
  pending: number;
  sent: number;
  skipped: number;
  failed: number;
}

async function countsOf(bulkRequestIds: string[]): Promise<Map<string, BulkCounts>> {
  const groups = bulkRequestIds.length
    ? await db.bulkRequestItem.groupBy({ by: ["bulkRequestId", "status"], where: { bulkRequestId: { in: bulkRequestIds } }, _count: { _all: true } })
    : [];
  const map = new Map<string, BulkCounts>();
  for (const id of bulkRequestIds) map.set(id, { total: 0, pending: 0, sent: 0, skipped: 0, failed: 0 });
  for (const g of groups) {
    const c = map.get(g.bulkRequestId)!;
    c[g.status] += g._count._all;
    c.total += g._count._all;
  }
  return map;
}

/** The organization's bulk requests, newest first, each with its counts (members and admins). */
export async function listBulkRequests({ viewer, take = 50 }: { viewer: Viewer; take?: number }) {
  requireOrg(viewer, "sendBulkRequests");
  const rows = await db.bulkRequest.findMany({ where: { orgId: viewer.orgId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take });
  const counts = await countsOf(rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    title: RequestSpecSchema.parse(r.spec).title,
    status: r.status,
    createdAt: r.createdAt,
    counts: counts.get(r.id)!,
  }));
}

/**
 * One bulk request with its counts and its portals, each with its outcome (sent with the task,
 * skipped or failed and why, pending): the progress page while it runs and afterwards.
 */
export async function getBulkRequest({ viewer, bulkRequestId }: { viewer: Viewer; bulkRequestId: string }) {
  requireOrg(viewer, "sendBulkRequests");
  if (!isUuid(bulkRequestId)) throw notFound("Bulk request");
  const bulk = await db.bulkRequest.findFirst({ where: { id: bulkRequestId, orgId: viewer.orgId } });
  if (!bulk) throw notFound("Bulk request");
  const [counts, items] = await Promise.all([
    countsOf([bulk.id]),
    db.bulkRequestItem.findMany({
      where: { bulkRequestId: bulk.id },
      select: { portalId: true, status: true, taskId: true, reason: true, processedAt: true, portal: { select: { name: true } } },
      orderBy: [{ portal: { name: "asc" } }, { portalId: "asc" }],
    }),
  ]);
  return {
    id: bulk.id,
    spec: RequestSpecSchema.parse(bulk.spec),
    status: bulk.status,
    sentAt: bulk.sentAt,
    finishedAt: bulk.finishedAt,
    cancelledAt: bulk.cancelledAt,
    counts: counts.get(bulk.id)!,
    // What needs a look first: failed, then skipped, then waiting, then sent; by portal name within each.
    items: items
      .map((i) => ({
        portalId: i.portalId,
        portalName: i.portal.name,
        status: i.status,
        taskId: i.taskId,
        reason: i.reason,
        processedAt: i.processedAt,
      }))
      .sort((a, b) => ITEM_ORDER[a.status] - ITEM_ORDER[b.status]),
  };
}

/**
 * Cancels a running bulk request: the portals not reached yet are skipped (`cancelled`); a portal
 * being sent to right now finishes first (its item is locked), and what was sent stays. Cancelling
 * a finished one changes nothing.
 */
export async function cancelBulkRequest({ viewer, bulkRequestId }: { viewer: Viewer; bulkRequestId: string }) {
  requireOrg(viewer, "sendBulkRequests");
  if (!isUuid(bulkRequestId)) throw notFound("Bulk request");
  return runInTransaction(async (tx) => {
    const bulk = await tx.bulkRequest.findFirst({ where: { id: bulkRequestId, orgId: viewer.orgId }, select: { id: true, status: true } });
    if (!bulk) throw notFound("Bulk request");
    if (bulk.status !== "running") return { status: bulk.status, cancelled: 0 };
    await tx.bulkRequest.update({ where: { id: bulk.id }, data: { status: "cancelled", cancelledAt: new Date(), finishedAt: new Date() } });
    const { count } = await tx.bulkRequestItem.updateMany({
      where: { bulkRequestId: bulk.id, status: "pending" },
      data: { status: "skipped", reason: "cancelled", processedAt: new Date() },
    });
    await recordAudit(tx, {
      orgId: viewer.orgId,
      actor: actorOf(viewer),
      action: "bulk_request.cancelled",
      targetType: "bulk_request",
      targetId: bulk.id,
      metadata: { portals_not_reached: count },
    });
    return { status: "cancelled" as const, cancelled: count };
  });
}
