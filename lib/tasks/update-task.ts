import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { invalidField, invalidRequest } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import { statusFromInput } from "./action-types";
import { markTaskDone, markTaskOpen } from "./complete-task";
import { setTaskFormFields } from "./form-fields";
import { SignaturePlacementSchema, setSignDocument } from "./sign-document-task";
import { setSigners } from "./signers";
import { checkTaskContent, replaceAssignees } from "./task-content";
import { UpdateTaskBodySchema, type UpdateTaskBody } from "./schemas";
import { lockTaskFor, recordRemindersChanged, touchPortal } from "./task-changes";

export type UpdateTaskInput = { viewer: Viewer; taskId: string } & UpdateTaskBody;

/**
 * PATCH a task: only the fields sent change; `status` finishes (done/completed/closed, any case)
 * or reopens (anything else) through the one transition of complete-task.ts, so `task.completed`
 * fires once per Open → Done (D12). A change of due date or send_reminder records
 * `task.reminders_changed` (D18). `assigned_guest_ids` / `assigned_member_ids` replace that kind
 * of assignee, `form_fields` a Fill Form's fields and `document_file_id` / `signature_placement` a
 * Sign Document's document, through the web's functions in this transaction (all or nothing). A
 * PATCH that changes nothing writes nothing.
 */
export async function updateTask({ viewer, taskId, ...input }: UpdateTaskInput): Promise<{ changed: boolean }> {
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  const body = UpdateTaskBodySchema.parse(input);
  const changed = await withChange(async (tx) => {
    const task = await lockTaskFor(tx, viewer, taskId, "manageTasks");
    checkTaskContent(task.actionType, body);
    const dueDate = body.due_date === undefined ? task.dueDate : body.due_date === null ? null : new Date(body.due_date);
    const sendReminder = body.send_reminder ?? task.sendReminder;
    if (sendReminder && dueDate === null) {
      throw invalidRequest(body.due_date === null ? "due_date: Cannot be cleared while send_reminder is on" : "send_reminder: Requires due_date");
    }

    const data: { title?: string; description?: string; dueDate?: Date | null; sendReminder?: boolean } = {};
    if (body.title !== undefined && body.title !== task.title) data.title = body.title;
    if (body.description !== undefined && body.description !== task.description) data.description = body.description;
    if (dueDate?.getTime() !== task.dueDate?.getTime()) data.dueDate = dueDate;
    if (sendReminder !== task.sendReminder) data.sendReminder = sendReminder;
    const fields = Object.keys(data);
    if (fields.length > 0) {
      await tx.task.update({ where: { id: task.id }, data });
      await touchPortal(tx, { orgId, portalId: task.portalId });
      await recordAudit(tx, {
        orgId,
        portalId: task.portalId,
        actor,
        action: "task.updated",
        targetType: "task",
        targetId: task.id,
        metadata: {
          fields,
          ...(data.dueDate !== undefined ? { due_date: data.dueDate?.toISOString() ?? null } : {}),
          ...(data.sendReminder !== undefined ? { send_reminder: data.sendReminder } : {}),
        },
      });
    }

    const assigneesChanged = await replaceAssignees(tx, { orgId, task, actor, guestIds: body.assigned_guest_ids, memberIds: body.assigned_member_ids });
    if (body.form_fields !== undefined) await setTaskFormFields({ viewer, taskId: task.id, fields: body.form_fields });
    if (body.document_file_id !== undefined || body.signature_placement !== undefined) {
      const fileId = body.document_file_id ?? task.documentFileId;
      if (!fileId) throw invalidField("document_file_id", "Required: the task has no document to sign yet");
      const stored = SignaturePlacementSchema.safeParse(task.signaturePlacement);
      const placement = body.signature_placement ?? (stored.success ? stored.data : { signaturePage: true as const });
      await setSignDocument({ viewer, taskId: task.id, fileId, placement });
    }
    if (body.signers !== undefined || body.signing_order !== undefined) {
      const current = await tx.taskSigner.findMany({ where: { taskId: task.id }, orderBy: { position: "asc" }, select: { userId: true } });
      await setSigners({ viewer, taskId: task.id, signers: body.signers ?? current.map((s) => s.userId), order: body.signing_order ?? task.signingOrder });
    }
    const contentChanged =
      assigneesChanged ||
      body.form_fields !== undefined ||
      body.document_file_id !== undefined ||
      body.signature_placement !== undefined ||
      body.signers !== undefined ||
      body.signing_order !== undefined;
    if (assigneesChanged && fields.length === 0) await touchPortal(tx, { orgId, portalId: task.portalId });

    let transitioned = false;
    if (body.status !== undefined) {
      const target = statusFromInput(body.status);
      if (target === "Done" && task.status === "Open") transitioned = await markTaskDone(tx, { orgId, taskId: task.id, actor });
      if (target === "Open" && task.status === "Done") transitioned = await markTaskOpen(tx, { orgId, taskId: task.id, actor });
    }
    // A transition with reminders on already recorded the schedule's new state.
    const reminderFieldsChanged = (data.dueDate !== undefined && (task.sendReminder || sendReminder)) || data.sendReminder !== undefined;
    if (reminderFieldsChanged && !(transitioned && sendReminder)) await recordRemindersChanged(tx, task.id);
    return fields.length > 0 || transitioned || contentChanged;
  });
  return { changed };
}
