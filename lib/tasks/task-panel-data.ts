import { taskWhere } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { accessPortal } from "@/lib/access/access-portal";
import { TASK_INCLUDE, type TaskWithRelations } from "./list-portal-tasks";

// What the web tasks panel reads besides the API's list: who a task can be assigned to, and one task.

export interface AssigneeOption {
  userId: string;
  name: string | null;
  email: string;
}

/**
 * Who a task of the portal may be assigned to (D17): the portal's guests and the organization's
 * members and admins, by name then email. Those who manage the portal's tasks; 404 otherwise.
 */
export async function listAssigneeOptions({
  viewer,
  portalId,
}: {
  viewer: Viewer;
  portalId: string;
}): Promise<{ guests: AssigneeOption[]; members: AssigneeOption[] }> {
  await accessPortal(viewer, portalId, "manageTasks");
  const user = { select: { id: true, name: true, email: true } } as const;
  const [guests, members] = await Promise.all([
    db.portalGuest.findMany({ where: { orgId: viewer.orgId, portalId }, select: { user }, orderBy: [{ user: { name: "asc" } }, { user: { email: "asc" } }] }),
    db.membership.findMany({ where: { orgId: viewer.orgId }, select: { user }, orderBy: [{ user: { name: "asc" } }, { user: { email: "asc" } }] }),
  ]);
  const option = ({ user: u }: { user: { id: string; name: string | null; email: string } }) => ({ userId: u.id, name: u.name, email: u.email });
  return { guests: guests.map(option), members: members.map(option) };
}

/** One active task of the portal with its assignees and attached file ids; 404 when missing or not the viewer's to see. */
export async function getPortalTask({ viewer, portalId, taskId }: { viewer: Viewer; portalId: string; taskId: string }): Promise<TaskWithRelations> {
  await accessPortal(viewer, portalId, "viewTasks");
  const task = isUuid(taskId)
    ? await db.task.findFirst({ where: { AND: [taskWhere(viewer, "viewTasks"), { id: taskId, portalId }] }, include: TASK_INCLUDE })
    : null;
  if (!task) throw notFound("Task");
  return task;
}
