import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { withChange } from "@/lib/events/with-change";
import { lockTaskFor, recordRemindersChanged, touchPortal } from "./task-changes";

/** Soft-deletes a task (web application); its reminders stop (D18). 404 when missing or foreign. */
export async function deleteTask({ viewer, taskId }: { viewer: Viewer; taskId: string }): Promise<void> {
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  await withChange(async (tx) => {
    const task = await lockTaskFor(tx, viewer, taskId, "manageTasks");
    await tx.task.update({ where: { id: task.id }, data: { deletedAt: new Date() } });
    await touchPortal(tx, { orgId, portalId: task.portalId });
    await recordAudit(tx, {
      orgId,
      portalId: task.portalId,
      actor,
      action: "task.deleted",
      targetType: "task",
      targetId: task.id,
      metadata: { title: task.title },
    });
    if (task.sendReminder) await recordRemindersChanged(tx, task.id);
  });
}
