import { recordAudit } from "@/lib/audit/record-audit";
import type { Actor } from "@/lib/access/viewer";
import type { Tx } from "@/lib/db";
import { recordEvent } from "@/lib/events/record-event";
import type { FileEntry } from "@/lib/generated/prisma/client";
import { DEFAULT_CONTENT_TYPE } from "./schemas";

/**
 * What every registration does besides the row itself, in the caller's transaction: the portal's
 * last activity, the audit row, and `file.uploaded`. The event row is also the durable record
 * from which portal users are notified per their settings (the email side comes with the
 * tasks/guests work), just as webhooks and the partner push start from it.
 */
export async function recordUpload(tx: Tx, { actor, file, mode }: { actor: Actor; file: FileEntry; mode: "file_url" | "presigned" }): Promise<void> {
  const at = file.registeredAt ?? new Date();
  await tx.portal.updateMany({
    where: { id: file.portalId, orgId: file.orgId, OR: [{ lastActivityAt: null }, { lastActivityAt: { lt: at } }] },
    data: { lastActivityAt: at },
  });
  const uploader = file.uploadedById ? await tx.user.findUnique({ where: { id: file.uploadedById }, select: { email: true, name: true } }) : null;
  await recordAudit(tx, {
    orgId: file.orgId,
    portalId: file.portalId,
    actor,
    action: "file.uploaded",
    targetType: "file",
    targetId: file.id,
    metadata: { name: file.name, size: file.size, mode, task_id: file.taskId, parent_folder_file_id: file.parentId },
  });
  await recordEvent(tx, {
    orgId: file.orgId,
    portalId: file.portalId,
    type: "file.uploaded",
    data: {
      file_id: file.id,
      name: file.name,
      extension: file.extension,
      size: file.size,
      content_type: file.contentType ?? DEFAULT_CONTENT_TYPE,
      uploaded_by: file.uploadedById,
      uploaded_by_email: uploader?.email ?? null,
      uploaded_by_name: uploader?.name ?? null,
      task_id: file.taskId,
    },
  });
}
