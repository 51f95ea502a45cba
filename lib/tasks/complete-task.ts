import { type Actor, actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import type { Tx } from "@/lib/db";
import { withChange } from "@/lib/events/with-change";
import { recordEvent } from "@/lib/events/record-event";
import { toApiActionType } from "./action-types";
import { actorUserId, lockTaskFor, recordRemindersChanged, touchPortal } from "./task-changes";

/** A completion (and a reopening) starts without a review (lib/tasks/review-task.ts). */
const NOT_REVIEWED = { review: null, reviewNote: null, reviewedAt: null, reviewedById: null };

/**
 * THE Open → Done transition, used by every route (PATCH, POST complete, the web, a File Request
 * fulfilled by a guest upload). A conditional update (`status = Open`): of concurrent completions
 * exactly one changes the row, and only that one writes the audit row and `task.completed` (D12).
 * Returns false when the task was not Open (already Done: nothing happens).
 */
export async function markTaskDone(
  tx: Tx,
  { orgId, taskId, actor, fileId }: { orgId: string; taskId: string; actor: Actor; fileId?: string },
): Promise<boolean> {
  const at = new Date();
  const { count } = await tx.task.updateMany({
    where: { id: taskId, orgId, deletedAt: null, status: "Open" },
    data: { status: "Done", completedAt: at, completedById: actorUserId(actor), ...NOT_REVIEWED },
  });
  if (count === 0) return false;
  const task = await tx.task.findUniqueOrThrow({
    where: { id: taskId },
    include: {
      files: {
        where: { status: "registered", deletedAt: null, isFolder: false },
        select: { id: true, name: true },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      },
    },
  });
  await touchPortal(tx, { orgId, portalId: task.portalId, at });
  await recordAudit(tx, {
    orgId,
    portalId: task.portalId,
    actor,
    action: "task.completed",
    targetType: "task",
    targetId: task.id,
    metadata: fileId ? { file_id: fileId } : {},
  });
  await recordEvent(tx, {
    orgId,
    portalId: task.portalId,
    type: "task.completed",
    data: {
      task_id: task.id,
      action_type: toApiActionType(task.actionType),
      status: "Done",
      attached_files: task.files.map((f) => ({ file_id: f.id, name: f.name })),
      ...(fileId ? { file_id: fileId } : {}),
    },
  });
  if (task.sendReminder) await recordRemindersChanged(tx, task.id);
  return true;
}

/** Done → Open (reopen): completion cleared, reminders resume when they apply. False when not Done. */
export async function markTaskOpen(tx: Tx, { orgId, taskId, actor }: { orgId: string; taskId: string; actor: Actor }): Promise<boolean> {
  const { count } = await tx.task.updateMany({
    where: { id: taskId, orgId, deletedAt: null, status: "Done" },
    data: { status: "Open", completedAt: null, completedById: null, ...NOT_REVIEWED },
  });
  if (count === 0) return false;
  const task = await tx.task.findUniqueOrThrow({ where: { id: taskId } });
  await touchPortal(tx, { orgId, portalId: task.portalId });
  await recordAudit(tx, { orgId, portalId: task.portalId, actor, action: "task.reopened", targetType: "task", targetId: task.id });
  if (task.sendReminder) await recordRemindersChanged(tx, task.id);
  return true;
}

/** POST complete: 404 for a missing, deleted or foreign task; a Done task stays as it is. */
export async function completeTask({ viewer, taskId }: { viewer: Viewer; taskId: string }): Promise<{ changed: boolean }> {
  const changed = await withChange(async (tx) => {
    await lockTaskFor(tx, viewer, taskId, "manageTasks");
    return markTaskDone(tx, { orgId: viewer.orgId, taskId, actor: actorOf(viewer) });
  });
  return { changed };
}

/**
 * A File Request fulfilled by an upload (a guest's, in the web application): an Open File Request
 * task becomes Done and `task.completed` carries the completing `file_id`. Other action types and
 * tasks already Done are left as they are (false). Pass `tx` to complete in the upload's own
 * transaction.
 */
export async function completeTaskByUpload({ viewer, taskId, fileId }: { viewer: Viewer; taskId: string; fileId: string }, tx?: Tx): Promise<boolean> {
  const run = async (t: Tx) => {
    const task = await lockTaskFor(t, viewer, taskId, "upload");
    if (task.actionType !== "FileRequest") return false;
    return markTaskDone(t, { orgId: viewer.orgId, taskId, actor: actorOf(viewer), fileId });
  };
  if (tx) return run(tx);
  return withChange(run);
}
