import { requirePortal } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { AppError, forbidden, invalidField } from "@/lib/errors";
import { recordEvent } from "@/lib/events/record-event";
import { withChange } from "@/lib/events/with-change";
import { isUuid } from "@/lib/ids";
import { isClient, messageSummary, recordClientActivity } from "@/lib/inbox/record-activity";
import { lockPortal } from "@/lib/portals/lock-portal";
import { touchPortal } from "@/lib/tasks/task-changes";

const MAX_MESSAGE_LENGTH = 10_000;
const MAX_ATTACHMENTS = 10;

/**
 * Writes a message to the portal's thread, as a member or admin (the firm) or a guest of the
 * portal (the client), with files already uploaded to the portal through the two-step upload
 * (lib/files) by the same person and not yet attached to a message. One transaction, the portal
 * locked first: the message, its files linked, the portal's activity, the audit row
 * `message.posted`, the internal `message.posted` event (the email, lib/notifications/message-posted.ts;
 * not a webhook event), the author's own read marker, and for a client's message the firm's inbox
 * item (which replaces the inbox items of the attached uploads: one line for the message).
 */
export async function postMessage({ viewer, portalId, body, fileIds = [] }: { viewer: Viewer; portalId: string; body: string; fileIds?: string[] }) {
  requirePortal(viewer, portalId, "messages");
  if (viewer.kind !== "user") throw forbidden("Only a person can write a message");
  const text = body.replace(/\r\n/g, "\n").trim();
  const files = [...new Set(fileIds)];
  if (files.length > MAX_ATTACHMENTS) throw invalidField("fileIds", `Attach at most ${MAX_ATTACHMENTS} files to one message`);
  if (files.some((id) => !isUuid(id))) throw invalidField("fileIds", "An attachment is not valid: remove it and attach the file again");
  if (!text && files.length === 0)
    throw new AppError("invalid_request", "body: Write a message or attach a file", {}, { field: "body", userMessage: "Write a message or attach a file" });
  if (text.length > MAX_MESSAGE_LENGTH) throw invalidField("body", `Keep the message under ${MAX_MESSAGE_LENGTH} characters`);

  return withChange(async (tx) => {
    await lockPortal(tx, { orgId: viewer.orgId, portalId });
    const at = new Date();
    const message = await tx.message.create({
      data: { orgId: viewer.orgId, portalId, authorId: viewer.userId, fromFirm: !isClient(viewer), body: text, createdAt: at },
      select: { id: true, createdAt: true },
    });
    let attached: { id: string; name: string }[] = [];
    if (files.length > 0) {
      const linked = await tx.fileEntry.updateManyAndReturn({
        where: {
          id: { in: files },
          orgId: viewer.orgId,
          portalId,
          uploadedById: viewer.userId,
          status: "registered",
          deletedAt: null,
          isFolder: false,
          messageId: null,
        },
        data: { messageId: message.id },
        select: { id: true, name: true },
      });
      if (linked.length !== files.length)
        throw invalidField(
          "fileIds",
          "An attachment is no longer available (removed, or already sent with another message): remove it and attach the file again",
        );
      attached = linked;
    }
    await touchPortal(tx, { orgId: viewer.orgId, portalId, at });
    await recordAudit(tx, {
      orgId: viewer.orgId,
      portalId,
      actor: actorOf(viewer),
      action: "message.posted",
      targetType: "message",
      targetId: message.id,
      metadata: { length: text.length, file_ids: attached.map((f) => f.id), from_firm: !isClient(viewer) },
    });
    await recordEvent(tx, { orgId: viewer.orgId, portalId, type: "message.posted", data: { message_id: message.id } });
    await tx.messageRead.upsert({
      where: { portalId_userId: { portalId, userId: viewer.userId } },
      create: { portalId, userId: viewer.userId, readAt: at },
      update: { readAt: at },
    });
    if (isClient(viewer)) {
      if (attached.length > 0)
        await tx.inboxItem.deleteMany({ where: { orgId: viewer.orgId, portalId, kind: "upload", fileId: { in: attached.map((f) => f.id) } } });
      await recordClientActivity(tx, viewer, { portalId, kind: "message", title: messageSummary(text, attached), messageId: message.id, at });
    }
    return { id: message.id, createdAt: message.createdAt, files: attached };
  });
}
