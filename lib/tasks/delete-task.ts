import { recordAudit, type Actor } from "@/lib/audit/record-audit";
import { withChange } from "@/lib/events/with-change";
import { lockTask, recordRemindersChanged, touchPortal } from "./task-changes";

/** Soft-deletes a task (web application); its reminders stop (D18). 404 when missing or foreign. */
export async function deleteTask({ orgId, actor, taskId }: { orgId: string; actor: Actor; taskId: string }): Promise<void> {
  await withChange(async (tx) => {
    const task = await lockTask(tx, { orgId, taskId });
    await tx.task.update({ where: { id: task.id }, data: { deletedAt: new Date() } });
    await touchPortal(tx, { orgId, portalId: task.portalId });
    await recordAudit(tx, { orgId, portalId: task.portalId, actor, action: "task.deleted", targetType: "task", targetId: task.id, metadata: { title: task.title } });
    if (task.sendReminder) await recordRemindersChanged(tx, task.id);
  });
}
