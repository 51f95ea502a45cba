import { requirePortal, type PortalAction } from "@/lib/access/policy";
import type { Actor, Viewer } from "@/lib/access/viewer";
import type { Tx } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/events/record-event";
import { isUuid } from "@/lib/ids";
import { rows, sql } from "@/lib/sql";

// What every task change does besides the row itself, in the caller's transaction.

export const actorUserId = (actor: Actor): string | null => (actor.type === "user" ? actor.userId : null);

/**
 * The task row, locked until the transaction ends, so changes of one task run one after another.
 * Its portal's row is locked first (the lock order, lib/portals/lock-portal.ts): a task change
 * touches the portal's activity, and an upload completing a task holds the portal before the task.
 */
async function lockTask(tx: Tx, { orgId, taskId }: { orgId: string; taskId: string }) {
  if (!isUuid(taskId)) throw notFound("Task");
  const portalOfTask = sql.selectFrom("Task").select("portalId").where("id", "=", taskId).where("orgId", "=", orgId);
  await rows(sql.selectFrom("Portal").select("id").where("id", "=", portalOfTask).where("orgId", "=", orgId).forNoKeyUpdate(), { tx });
  await rows(sql.selectFrom("Task").select("id").where("id", "=", taskId).where("orgId", "=", orgId).where("deletedAt", "is", null).forUpdate(), { tx });
  const task = await tx.task.findFirst({ where: { id: taskId, orgId, deletedAt: null } });
  if (!task) throw notFound("Task");
  return task;
}

/** lockTask, then the policy for `action` in the task's portal (a guest of another portal: 404). */
export async function lockTaskFor(tx: Tx, viewer: Viewer, taskId: string, action: PortalAction) {
  const task = await lockTask(tx, { orgId: viewer.orgId, taskId });
  requirePortal(viewer, task.portalId, action, "Task");
  return task;
}

/** Portal activity (D9 `last_activity_at`): a task change is activity. */
export async function touchPortal(tx: Tx, { orgId, portalId, at = new Date() }: { orgId: string; portalId: string; at?: Date }) {
  await tx.portal.updateMany({
    where: { id: portalId, orgId, OR: [{ lastActivityAt: null }, { lastActivityAt: { lt: at } }] },
    data: { lastActivityAt: at },
  });
}

/**
 * The internal `task.reminders_changed` event with the task's current state: it cancels the
 * task's running reminder run and starts a new one when reminders still apply (D18). Written in
 * the transaction of the change, so no committed change is missed by the reminders.
 */
export async function recordRemindersChanged(tx: Tx, taskId: string) {
  const t = await tx.task.findUniqueOrThrow({ where: { id: taskId } });
  await recordEvent(tx, {
    orgId: t.orgId,
    portalId: t.portalId,
    type: "task.reminders_changed",
    data: {
      task_id: t.id,
      due_date: t.dueDate?.toISOString() ?? null,
      send_reminder: t.sendReminder,
      status: t.status,
      deleted: t.deletedAt !== null,
    },
  });
}
