import { fileWhere, requirePortal, taskWhere } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/**
 * What the tasks panel shows of one task beyond the API's fields: its form fields (Fill Form),
 * the files linked to it (a File Request's fulfilling uploads), the answers (a Question's has no
 * field), a Sign Document's document and placement, and the reminder log (every point: sent, failed or skipped, with recipients), oldest
 * first. Anyone who may view the portal's tasks; 404 otherwise.
 */
export async function getTaskDetails({ viewer, portalId, taskId }: { viewer: Viewer; portalId: string; taskId: string }) {
  requirePortal(viewer, portalId, "viewTasks", "Task");
  const task = isUuid(taskId)
    ? await db.task.findFirst({
        where: { AND: [taskWhere(viewer, "viewTasks"), { id: taskId, portalId }] },
        select: { id: true, documentFileId: true, signaturePlacement: true },
      })
    : null;
  if (!task) throw notFound("Task");
  const [formFields, files, answers, reminders, document] = await Promise.all([
    db.taskFormField.findMany({ where: { taskId }, orderBy: { position: "asc" } }),
    db.fileEntry.findMany({
      where: { AND: [fileWhere(viewer, "listFiles"), { taskId, isFolder: false }] },
      select: { id: true, name: true, size: true, contentType: true, registeredAt: true, uploadedById: true },
      orderBy: [{ registeredAt: "asc" }, { id: "asc" }],
    }),
    db.taskAnswer.findMany({
      where: { taskId },
      include: { user: { select: { id: true, name: true, email: true } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
    db.taskReminder.findMany({ where: { taskId }, orderBy: [{ scheduledFor: "asc" }, { offsetDays: "asc" }] }),
    task.documentFileId
      ? db.fileEntry.findFirst({ where: { AND: [fileWhere(viewer, "listFiles"), { id: task.documentFileId }] }, select: { id: true, name: true, size: true } })
      : null,
  ]);
  return {
    /** Sign Document: the PDF to sign while it is still in the portal (null once deleted), and the placement. */
    document: document ? { file: document, placement: task.signaturePlacement } : null,
    formFields,
    files,
    answers: answers.map((a) => ({ fieldId: a.fieldId, value: a.value, at: a.updatedAt, by: a.user })),
    reminders: reminders.map((r) => ({ offsetDays: r.offsetDays, scheduledFor: r.scheduledFor, status: r.status, recipients: r.recipients, detail: r.detail })),
  };
}
