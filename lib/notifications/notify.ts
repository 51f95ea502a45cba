import { db } from "@/lib/db";
import { sendEmail } from "@/lib/email/send-email";
import { fileUploadedEmail } from "@/lib/email/templates/file-uploaded";
import { taskCompletedEmail } from "@/lib/email/templates/task-completed";
import { fileWebUrl, portalWebUrl } from "@/lib/links";
import type { NoticeLine } from "@/lib/email/templates/batched-notices";
import { offerNotice } from "./batch";
import { keepForDigest } from "./digest";
import { modeForUser } from "./preferences";
import { notificationRecipients, type NotificationKind, type Recipient } from "./recipients";

export interface PortalNotification {
  kind: NotificationKind;
  orgId: string;
  portalId: string;
  actorUserId: string | null;
  subject: string;
  text: string;
  html: string;
  /** Uploads: the file, as one line of a combined "new files" email (lib/notifications/batch.ts). */
  batch?: { sourceId: string; line: NoticeLine };
}

export interface PlannedNotification {
  notification: PortalNotification;
  recipients: Recipient[];
}

/** The notification of a `file.uploaded` event and who gets it; null when the portal is gone. */
export async function fileUploadedNotification(input: {
  orgId: string;
  portalId: string;
  fileId: string;
  fileName: string;
  uploadedBy: string | null;
  uploaderName: string | null;
  uploaderEmail: string | null;
}): Promise<PlannedNotification | null> {
  const portal = await db.portal.findFirst({ where: { id: input.portalId, orgId: input.orgId, deletedAt: null }, select: { name: true } });
  if (!portal) return null;
  const content = fileUploadedEmail({
    portalName: portal.name,
    fileName: input.fileName,
    uploaderName: input.uploaderName ?? input.uploaderEmail,
    fileUrl: fileWebUrl(input.orgId, input.portalId, input.fileId),
  });
  const fileUrl = fileWebUrl(input.orgId, input.portalId, input.fileId);
  const who = input.uploaderName ?? input.uploaderEmail;
  const notification = {
    kind: "fileUploaded" as const,
    orgId: input.orgId,
    portalId: input.portalId,
    actorUserId: input.uploadedBy,
    ...content,
    batch: { sourceId: input.fileId, line: { title: input.fileName, url: fileUrl, detail: who ? `${portal.name} · by ${who}` : portal.name } },
  };
  return { notification, recipients: await notificationRecipients({ ...notification }) };
}

/** The notification of a `task.completed` event and who gets it; null when the task or portal is gone. */
export async function taskCompletedNotification(input: { orgId: string; portalId: string; taskId: string }): Promise<PlannedNotification | null> {
  const task = await db.task.findFirst({
    where: { id: input.taskId, orgId: input.orgId, portalId: input.portalId, deletedAt: null, portal: { deletedAt: null } },
    select: { title: true, completedById: true, portal: { select: { name: true } } },
  });
  if (!task) return null;
  const completer = task.completedById ? await db.user.findUnique({ where: { id: task.completedById }, select: { name: true, email: true } }) : null;
  const content = taskCompletedEmail({
    portalName: task.portal.name,
    taskTitle: task.title,
    completedBy: completer?.name ?? completer?.email ?? null,
    portalUrl: portalWebUrl(input.orgId, input.portalId),
  });
  const notification = { kind: "taskCompleted" as const, orgId: input.orgId, portalId: input.portalId, actorUserId: task.completedById, ...content };
  return { notification, recipients: await notificationRecipients({ ...notification }) };
}

/**
 * One recipient's copy, as they chose in their notification settings: sent now (queued with SMTP,
 * captured without), kept for their daily digest, or not at all. An upload's copy is held for the
 * batch window instead of sent (`held`), for the run to flush after it.
 */
export async function sendNotification(notification: PortalNotification, recipient: Recipient) {
  if (notification.batch) {
    const { subject, text, html, orgId } = notification;
    const outcome = await offerNotice({ userId: recipient.userId, orgId, kind: "uploads", subject, text, html, ...notification.batch }, "uploads");
    return outcome === "held" ? { held: true as const } : { skipped: outcome };
  }
  const mode = await modeForUser(recipient.userId, notification.kind === "fileUploaded" ? "uploads" : "taskCompletions");
  if (mode === "off") return { skipped: "off" as const };
  if (mode === "digest") {
    const url = portalWebUrl(notification.orgId, notification.portalId);
    await keepForDigest({
      userId: recipient.userId,
      orgId: notification.orgId,
      kind: notification.kind === "fileUploaded" ? "uploads" : "taskCompletions",
      subject: notification.subject,
      text: notification.text,
      url,
    });
    return { skipped: "digest" as const };
  }
  return sendEmail({
    orgId: notification.orgId,
    to: recipient.email,
    subject: notification.subject,
    text: notification.text,
    html: notification.html,
    template: notification.kind === "fileUploaded" ? "file-uploaded" : "task-completed",
  });
}
