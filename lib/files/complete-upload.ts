import { actorOf, userIdOf, type Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { invalidRequest } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import type { FileEntry } from "@/lib/generated/prisma/client";
import { accessPortal } from "@/lib/access/access-portal";
import { lockPortal } from "@/lib/portals/lock-portal";
import { headObject } from "@/lib/storage/objects";
import { extensionOf } from "./filename";
import { recordUpload } from "./record-upload";
import { MAX_FILE_SIZE } from "./limits";
import { UNANNOUNCED_SIZE } from "./start-upload";
import { completeTaskByUpload } from "@/lib/tasks/complete-task";
import { recordClientActivity } from "@/lib/inbox/record-activity";
import { checkUploadTarget } from "./upload-target";

export interface CompleteUploadInput {
  viewer: Viewer;
  portalId: string;
  fileId: string;
  filename: string;
  extension?: string;
  size?: number;
  /** Given: replaces the folder or task chosen at upload (same checks). */
  parentId?: string;
  taskId?: string;
}

/**
 * Two-step upload, second step (D14): the object must be in storage with the announced size and
 * the Content-Type the URL was signed for; then the pending record becomes registered, with its
 * audit row and `file.uploaded`, in one transaction. The change is conditional (pending →
 * registered), so of two concurrent completions one registers and fires; the other, like any
 * later repeat, gets the same entry and fires nothing. Pending uploads expire after 1 hour.
 * An upload belongs to whoever started it: anyone else's file_id is answered as an unknown one.
 */
export async function completeUpload(input: CompleteUploadInput): Promise<FileEntry> {
  const { viewer, portalId, fileId } = input;
  await accessPortal(viewer, portalId, "upload");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  const uploadedById = userIdOf(viewer);
  const pending = await db.fileEntry.findFirst({ where: { id: fileId, orgId, portalId, uploadedById, isFolder: false, deletedAt: null } });
  if (!pending || !pending.storageKey) throw invalidRequest("file_id: No upload with this id in this portal");
  if (pending.status === "registered") return pending;
  if (!pending.pendingExpiresAt || pending.pendingExpiresAt <= new Date()) throw invalidRequest("file_id: The upload expired (pending uploads last 1 hour)");

  const stored = await headObject(pending.storageKey);
  if (!stored) throw invalidRequest("file_id: No bytes were uploaded for this file (PUT them to the upload_url first)");
  for (const announced of [pending.size, input.size]) {
    if (announced !== undefined && announced !== UNANNOUNCED_SIZE && announced !== stored.size) {
      throw invalidRequest(`size: The stored file has ${stored.size} bytes, not the ${announced} announced`);
    }
  }
  if (stored.size > MAX_FILE_SIZE) throw invalidRequest(`size: Files are limited to ${MAX_FILE_SIZE} bytes`);
  // The embedded S3 server does not enforce the signed Content-Type, so it is checked here too.
  if (stored.contentType !== pending.contentType) {
    throw invalidRequest(
      `file_id: The bytes were uploaded with Content-Type ${JSON.stringify(stored.contentType)}, not the ${JSON.stringify(pending.contentType)} the upload_url was signed for`,
    );
  }

  const result = await withChange(async (tx) => {
    await lockPortal(tx, { orgId, portalId });
    const target = await checkUploadTarget(tx, {
      orgId,
      portalId,
      parentId: input.parentId !== undefined ? input.parentId : pending.parentId,
      taskId: input.taskId !== undefined ? input.taskId : pending.taskId,
    });
    const now = new Date();
    const changed = await tx.fileEntry.updateMany({
      where: { id: fileId, orgId, portalId, uploadedById, status: "pending", deletedAt: null, pendingExpiresAt: { gt: now } },
      data: {
        status: "registered",
        registeredAt: now,
        pendingExpiresAt: null,
        name: input.filename,
        extension: input.extension ?? extensionOf(input.filename),
        size: stored.size,
        parentId: target.parentId,
        taskId: target.taskId,
      },
    });
    const file = await tx.fileEntry.findFirstOrThrow({ where: { id: fileId, orgId, portalId } });
    if (changed.count === 0) return { file, registered: false };
    await recordUpload(tx, { actor, file, mode: "presigned" });
    // A client's upload is in the firm's inbox (lib/inbox).
    await recordClientActivity(tx, viewer, { portalId, kind: "upload", title: file.name, fileId: file.id, taskId: file.taskId, at: now });
    // A guest's upload against an Open File Request fulfils it (D12: task.completed with file_id).
    if (file.taskId && viewer.kind === "user" && viewer.role === "guest") await completeTaskByUpload({ viewer, taskId: file.taskId, fileId: file.id }, tx);
    return { file, registered: true };
  });
  if (!result.registered) {
    // Lost a race: registered by a concurrent completion (same entry), or expired meanwhile.
    if (result.file.status === "registered" && result.file.deletedAt === null) return result.file;
    throw invalidRequest("file_id: The upload expired (pending uploads last 1 hour)");
  }
  return result.file;
}
