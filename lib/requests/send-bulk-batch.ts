import { findUserViewer, systemViewer, type Viewer } from "@/lib/access/viewer";
import { db, runInTransaction } from "@/lib/db";
import { requireOrg } from "@/lib/access/policy";
import { isAppError, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { rows, sql } from "@/lib/sql";
import { makeRequestTask, portalGuestIds } from "./make-request-task";
import { RequestSpecSchema, type RequestSpec } from "./schemas";

const BULK_BATCH_SIZE = 100;
/** Items of a batch made side by side (each its own transaction on its own connection). */
const PARALLEL = 4;

type ItemOutcome = "sent" | "skipped" | "failed" | "gone";

/**
 * Sends a bulk request to up to `limit` of its pending portals (the job calls it batch after
 * batch). Each portal is its own transaction: the item is claimed (`FOR UPDATE SKIP LOCKED`, still
 * pending), the task made through createTask (audit row, one `task.created`) and the item marked
 * sent with the task's id, together; so a retried or repeated run, or two runs at once, make one
 * task per portal. A portal without guests is skipped (`no_guests`), one deleted or turned into a
 * template since is skipped (`portal_gone`); a refusal of the task (an AppError: the document
 * gone...) marks the item failed with its message; anything else (the database away) throws and
 * the job's step is retried. The tasks are made as the member who sent the request while they
 * are still a member, else as the system.
 */
export async function sendBulkBatch({ viewer, bulkRequestId, limit = BULK_BATCH_SIZE }: { viewer: Viewer; bulkRequestId: string; limit?: number }) {
  requireOrg(viewer, "sendBulkRequests");
  const bulk = isUuid(bulkRequestId) ? await db.bulkRequest.findFirst({ where: { id: bulkRequestId, orgId: viewer.orgId } }) : null;
  if (!bulk) throw notFound("Bulk request");
  if (bulk.status !== "running") return { processed: 0, remaining: 0 };
  const spec = RequestSpecSchema.parse(bulk.spec);
  const sender = bulk.createdById ? await findUserViewer(bulk.createdById, bulk.orgId) : null;
  const acting: Viewer = sender && sender.role !== "guest" ? sender : systemViewer(bulk.orgId);
  const pending = await db.bulkRequestItem.findMany({
    where: { bulkRequestId, status: "pending" },
    select: { id: true, portalId: true },
    orderBy: { id: "asc" },
    take: limit,
  });
  let processed = 0;
  for (let i = 0; i < pending.length; i += PARALLEL) {
    const outcomes = await Promise.all(pending.slice(i, i + PARALLEL).map((item) => sendItem(acting, bulk.sentAt, spec, item)));
    processed += outcomes.filter((o) => o !== "gone").length;
  }
  const remaining = await db.bulkRequestItem.count({ where: { bulkRequestId, status: "pending" } });
  return { processed, remaining };
}

async function sendItem(viewer: Viewer, sentAt: Date, spec: RequestSpec, item: { id: string; portalId: string }): Promise<ItemOutcome> {
  return runInTransaction(
    async (tx) => {
      const claimed = await rows(
        sql.selectFrom("BulkRequestItem").select("id").where("id", "=", item.id).where("status", "=", "pending").forUpdate().skipLocked(),
        { tx },
      );
      if (claimed.length === 0) return "gone";
      const finish = (status: "sent" | "skipped" | "failed", data: { taskId?: string; reason?: string } = {}) =>
        tx.bulkRequestItem.update({ where: { id: item.id }, data: { status, processedAt: new Date(), ...data } }).then(() => status);

      const portal = await tx.portal.findFirst({ where: { id: item.portalId, orgId: viewer.orgId, deletedAt: null, isTemplate: false }, select: { id: true } });
      if (!portal) return finish("skipped", { reason: "portal_gone" });
      const guestIds = await portalGuestIds(viewer.orgId, item.portalId);
      if (guestIds.length === 0) return finish("skipped", { reason: "no_guests" });
      try {
        // A savepoint: a refused task undoes its own writes only, and the item still records why.
        const { taskId } = await runInTransaction(() => makeRequestTask({ viewer, portalId: item.portalId, spec, anchor: sentAt, guestIds }));
        return finish("sent", { taskId });
      } catch (error) {
        if (!isAppError(error)) throw error;
        return finish("failed", { reason: error.message.slice(0, 500) });
      }
    },
    { timeout: 30_000 },
  );
}

/** Marks the bulk request completed once no portal is pending (a cancelled one stays cancelled). */
export async function finishBulkRequest({ viewer, bulkRequestId }: { viewer: Viewer; bulkRequestId: string }) {
  requireOrg(viewer, "sendBulkRequests");
  if (!isUuid(bulkRequestId) || !(await db.bulkRequest.findFirst({ where: { id: bulkRequestId, orgId: viewer.orgId }, select: { id: true } })))
    throw notFound("Bulk request");
  const pending = await db.bulkRequestItem.count({ where: { bulkRequestId, status: "pending" } });
  if (pending > 0) return { status: "running" as const };
  await db.bulkRequest.updateMany({
    where: { id: bulkRequestId, orgId: viewer.orgId, status: "running" },
    data: { status: "completed", finishedAt: new Date() },
  });
  const bulk = await db.bulkRequest.findFirstOrThrow({ where: { id: bulkRequestId, orgId: viewer.orgId }, select: { status: true } });
  return { status: bulk.status };
}
