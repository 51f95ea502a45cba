import { db } from "@/lib/db";
import { sendEmail } from "@/lib/email/send-email";
import { routeByPreference } from "@/lib/notifications/digest";
import { reminderEmail } from "@/lib/email/templates/reminder";
import { orgTimeZone } from "@/lib/time/settings";
import { portalWebUrl } from "@/lib/links";

export type ReminderOutcome =
  | { outcome: "sent" | "failed" | "skipped"; recipients: string[] }
  | { outcome: "already_handled" }
  /** The schedule no longer applies: the run stops (D18). */
  | { outcome: "stopped"; reason: "task_gone" | "not_open" | "reminders_off" | "due_date_changed" };

type StopReason = Extract<ReminderOutcome, { outcome: "stopped" }>["reason"];

function scheduleStopReason(task: { status: string; sendReminder: boolean; dueDate: Date | null } | null, dueDate: string): StopReason | null {
  if (!task) return "task_gone";
  if (task.status !== "Open") return "not_open";
  if (!task.sendReminder) return "reminders_off";
  if (task.dueDate?.getTime() !== new Date(dueDate).getTime()) return "due_date_changed";
  return null;
}

/** Why a reminder run planned for `dueDate` should stop now, or null while its schedule applies. */
export async function reminderStopReason({ orgId, taskId, dueDate }: { orgId: string; taskId: string; dueDate: string }): Promise<StopReason | null> {
  const task = await db.task.findFirst({
    where: { id: taskId, orgId, deletedAt: null, portal: { deletedAt: null } },
    select: { status: true, sendReminder: true, dueDate: true },
  });
  return scheduleStopReason(task, dueDate);
}

/**
 * One reminder point of a task (D18), as the reminder run's step: the task is read again, and
 * only while it is Open, with send_reminder on and the due date the run was planned for, the
 * assigned guests (all the portal's guests when no guest is assigned) get the reminder email.
 * The point is logged in TaskReminder; the log row is claimed first (unique per task, offset and
 * time), so a repeated step or a second run for the same schedule sends nothing again.
 */
export async function sendTaskReminder({
  orgId,
  taskId,
  dueDate,
  offsetDays,
  scheduledFor,
}: {
  orgId: string;
  taskId: string;
  /** ISO due date the run was planned for. */
  dueDate: string;
  offsetDays: number;
  scheduledFor: string;
}): Promise<ReminderOutcome> {
  const task = await db.task.findFirst({
    where: { id: taskId, orgId, deletedAt: null, portal: { deletedAt: null } },
    include: { portal: { select: { id: true, name: true } }, assignees: { where: { type: "guest" }, select: { userId: true } } },
  });
  const stop = scheduleStopReason(task, dueDate);
  if (stop || !task) return { outcome: "stopped", reason: stop ?? "task_gone" };

  const at = new Date(scheduledFor);
  const claim = await db.taskReminder.createMany({
    data: [{ taskId, offsetDays, scheduledFor: at, status: "sent", detail: "sending" }],
    skipDuplicates: true,
  });
  if (claim.count === 0) return { outcome: "already_handled" };
  const where = { taskId, offsetDays, scheduledFor: at };

  try {
    const assigned = task.assignees.map((a) => a.userId);
    const guests = await db.portalGuest.findMany({
      where: { orgId, portalId: task.portalId, ...(assigned.length > 0 ? { userId: { in: assigned } } : {}) },
      select: { user: { select: { email: true, timeZone: true } } },
      orderBy: { invitedAt: "asc" },
    });
    const recipients = [...new Set(guests.map((g) => g.user.email))];
    const zoneOf = new Map(guests.map((g) => [g.user.email, g.user.timeZone]));
    if (recipients.length === 0) {
      await db.taskReminder.updateMany({ where, data: { status: "skipped", detail: "No guest to remind" } });
      return { outcome: "skipped", recipients };
    }
    const failed: string[] = [];
    const fallbackZone = await orgTimeZone(orgId);
    for (const to of recipients) {
      // Each guest reads the due date in their own zone, else the organization's.
      const message = reminderEmail({
        taskTitle: task.title,
        taskDescription: task.description,
        portalName: task.portal.name,
        // The task's due date: scheduleStopReason found them equal.
        dueDate: new Date(dueDate),
        offsetDays,
        portalUrl: portalWebUrl(orgId, task.portalId),
        timeZone: zoneOf.get(to) ?? fallbackZone,
      });
      // The guest's notification settings: a reminder may go to their daily digest, or nowhere.
      const route = await routeByPreference({
        email: to,
        orgId,
        kind: "reminders",
        subject: message.subject,
        text: message.text,
        url: portalWebUrl(orgId, task.portalId),
      });
      if (route !== "send") continue;
      const result = await sendEmail({ orgId, to, ...message, template: "reminder" });
      if (result.status === "failed") failed.push(to);
    }
    const outcome = failed.length === recipients.length ? "failed" : "sent";
    await db.taskReminder.updateMany({
      where,
      data: { status: outcome, recipients, detail: failed.length > 0 ? `Not sent to: ${failed.join(", ")}` : null },
    });
    return { outcome, recipients };
  } catch (err) {
    // Let the engine's retry claim the point again.
    await db.taskReminder.deleteMany({ where });
    throw err;
  }
}
