import type { Actor } from "@/lib/access/viewer";
import type { Tx } from "@/lib/db";
import { invalidRequest } from "@/lib/errors";
import { lockPortal } from "@/lib/portals/lock-portal";
import { checkFolderTarget } from "./entry-changes";
import { extensionOf } from "./filename";

export interface UploadTarget {
  /** Folder the file goes into; null: the portal root. */
  parentId: string | null;
  taskId: string | null;
}

/**
 * Checks where an upload goes: `parent_folder_file_id` must be an active folder of the same
 * portal and `task_id` an active task of the same portal; anything else (another portal's or
 * organization's id, a file, a deleted entry) is 400 naming the field.
 */
export async function checkUploadTarget(
  tx: Tx,
  { orgId, portalId, parentId, taskId }: { orgId: string; portalId: string; parentId: string | null; taskId: string | null },
): Promise<UploadTarget> {
  await checkFolderTarget(tx, { orgId, portalId, folderId: parentId, field: "parent_folder_file_id" });
  if (taskId !== null) {
    const task = await tx.task.findFirst({ where: { id: taskId, orgId, portalId, deletedAt: null }, select: { id: true } });
    if (!task) throw invalidRequest("task_id: Not a task of this portal");
  }
  return { parentId, taskId };
}

/**
 * Locks the portal, checks the target and returns the fields every new upload row has, whatever
 * the upload mode (two-step pending record or one-step registration).
 */
export async function prepareUploadRow(
  tx: Tx,
  input: {
    id: string;
    orgId: string;
    portalId: string;
    actor: Actor;
    filename: string;
    parentId: string | null;
    taskId: string | null;
    contentType: string;
    storageKey: string;
  },
) {
  const { id, orgId, portalId, actor } = input;
  await lockPortal(tx, { orgId, portalId });
  const target = await checkUploadTarget(tx, { orgId, portalId, parentId: input.parentId, taskId: input.taskId });
  return {
    id,
    orgId,
    portalId,
    parentId: target.parentId,
    taskId: target.taskId,
    name: input.filename,
    extension: extensionOf(input.filename),
    contentType: input.contentType,
    storageKey: input.storageKey,
    uploadedById: actor.type === "user" ? actor.userId : null,
    uploadedViaClientId: actor.type === "user" ? (actor.oauthClientId ?? null) : null,
  };
}
