import { requirePortal } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { invalidRequest, notFound } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import { recordEvent } from "@/lib/events/record-event";
import { isUuid } from "@/lib/ids";
import { fromApiActionType } from "./action-types";
import { resolveAssignees } from "./resolve-assignees";
import { CreateTaskBodySchema, type CreateTaskBody } from "./schemas";
import { actorUserId, recordRemindersChanged, touchPortal } from "./task-changes";

export type CreateTaskInput = { viewer: Viewer; portalId: string } & CreateTaskBody;

/**
 * Creates an Open task in a portal with its assignees (D17). The task, its assignees, the portal's
 * activity, the audit row, `task.created` and (with reminders) `task.reminders_changed` commit
 * together.
 */
export async function createTask({ viewer, portalId, ...input }: CreateTaskInput): Promise<{ taskId: string }> {
  requirePortal(viewer, portalId, "manageTasks");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  const body = CreateTaskBodySchema.parse(input);
  const sendReminder = body.send_reminder ?? false;
  if (sendReminder && body.due_date === undefined) throw invalidRequest("send_reminder: Requires due_date");
  const actionType = body.action_type ?? "General";
  const dueDate = body.due_date === undefined ? null : new Date(body.due_date);

  const taskId = await withChange(async (tx) => {
    const portal = isUuid(portalId) ? await tx.portal.findFirst({ where: { id: portalId, orgId, deletedAt: null }, select: { id: true } }) : null;
    if (!portal) throw notFound("Portal");
    const assignees = await resolveAssignees(tx, { orgId, portalId, guestIds: body.assigned_guest_ids, memberIds: body.assigned_member_ids });
    const task = await tx.task.create({
      data: {
        orgId,
        portalId,
        title: body.title,
        description: body.description ?? "",
        actionType: fromApiActionType(actionType),
        dueDate,
        sendReminder,
        createdById: actorUserId(actor),
        assignees: { create: assignees },
      },
    });
    await touchPortal(tx, { orgId, portalId, at: task.createdAt });
    await recordAudit(tx, {
      orgId,
      portalId,
      actor,
      action: "task.created",
      targetType: "task",
      targetId: task.id,
      metadata: {
        title: task.title,
        action_type: actionType,
        due_date: dueDate?.toISOString() ?? null,
        send_reminder: sendReminder,
        assignees: assignees.map((a) => ({ user_id: a.userId, type: a.type })),
      },
    });
    await recordEvent(tx, {
      orgId,
      portalId,
      type: "task.created",
      data: { task_id: task.id, title: task.title, action_type: actionType, due_date: dueDate?.toISOString() ?? null, status: "Open" },
    });
    if (sendReminder) await recordRemindersChanged(tx, task.id);
    return task.id;
  });
  return { taskId };
}
