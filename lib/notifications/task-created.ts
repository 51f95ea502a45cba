import { db, type Tx } from "@/lib/db";
import { taskCreatedEmail } from "@/lib/email/templates/task-created";
import { env } from "@/lib/env";
import { guestPortalPath } from "@/lib/links";
import { formatDate } from "@/lib/time/format";
import { orgTimeZone } from "@/lib/time/settings";
import type { HeldNotice } from "./batch";

/** The link a client follows to a task: its signing page for a document, its card otherwise. */
export function guestTaskUrl(orgId: string, portalId: string, task: { id: string; actionType: string }): string {
  const base = env().APP_URL + guestPortalPath(orgId, portalId);
  return task.actionType === "SignDocument" ? `${base}/sign/${task.id}` : `${base}#task-${task.id}`;
}

/**
 * The clients a new task is for (taskClients), with their notice; guests who have not accepted
 * their invitation have the invitation to follow first. Nothing when the task is gone or already
 * done by the time this runs.
 */
export async function taskCreatedNotices(input: { orgId: string; portalId: string; taskId: string }): Promise<HeldNotice[]> {
  const task = await db.task.findFirst({
    where: { id: input.taskId, orgId: input.orgId, portalId: input.portalId, deletedAt: null, status: "Open", portal: { deletedAt: null } },
    select: {
      id: true,
      title: true,
      description: true,
      actionType: true,
      dueDate: true,
      assignees: { select: { userId: true, type: true } },
      signingOrder: true,
      signers: { select: { userId: true, type: true }, orderBy: { position: "asc" } },
      portal: { select: { name: true, org: { select: { name: true } } } },
    },
  });
  if (!task) return [];
  // A document with named signers is for its signers: the first in order, or all of them in any order (the later ones are told in turn, lib/signing/sign-document.ts).
  const signers = task.signingOrder === "sequential" ? task.signers.slice(0, 1) : task.signers;
  const guests = await taskClients(db, { orgId: input.orgId, portalId: input.portalId, assignees: signers.length > 0 ? signers : task.assignees });
  const taskUrl = guestTaskUrl(input.orgId, input.portalId, task);
  // Each client reads the due date in their own zone, else the organization's.
  const [fallbackZone, zones] = await Promise.all([
    orgTimeZone(input.orgId),
    db.user.findMany({ where: { id: { in: guests } }, select: { id: true, timeZone: true } }),
  ]);
  const zoneOf = new Map(zones.map((u) => [u.id, u.timeZone]));
  return guests.map((userId) => {
    const timeZone = zoneOf.get(userId) ?? fallbackZone;
    const content = taskCreatedEmail({
      orgName: task.portal.org.name,
      portalName: task.portal.name,
      taskTitle: task.title,
      taskDescription: task.description,
      actionType: task.actionType,
      dueDate: task.dueDate,
      taskUrl,
      timeZone,
    });
    const detail = [task.portal.name, task.dueDate ? `due ${formatDate(task.dueDate, timeZone)}` : "no due date"].join(" · ");
    return {
      userId,
      orgId: input.orgId,
      kind: "requests" as const,
      sourceId: task.id,
      subject: content.subject,
      text: content.text,
      html: content.html,
      line: { title: task.title, url: taskUrl, detail },
    };
  });
}

/**
 * The clients a task is for: its assigned guests, or every guest of the portal when nobody at all
 * is assigned (a task assigned to members only is for no client); guests who accepted their
 * invitation only, and never a member of the organization.
 */
export async function taskClients(
  client: Pick<Tx, "portalGuest">,
  input: { orgId: string; portalId: string; assignees: { userId: string; type: string }[] },
): Promise<string[]> {
  const assignedGuests = input.assignees.filter((a) => a.type === "guest").map((a) => a.userId);
  if (input.assignees.length > 0 && assignedGuests.length === 0) return [];
  const guests = await client.portalGuest.findMany({
    where: {
      orgId: input.orgId,
      portalId: input.portalId,
      acceptedAt: { not: null },
      ...(assignedGuests.length > 0 ? { userId: { in: assignedGuests } } : {}),
      user: { memberships: { none: { orgId: input.orgId } } },
    },
    select: { userId: true },
    orderBy: { userId: "asc" },
  });
  return guests.map((g) => g.userId);
}
