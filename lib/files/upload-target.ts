import type { Tx } from "@/lib/db";
import { invalidRequest } from "@/lib/errors";

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
  if (parentId !== null) {
    const folder = await tx.fileEntry.findFirst({
      where: { id: parentId, orgId, portalId, isFolder: true, status: "registered", deletedAt: null },
      select: { id: true },
    });
    if (!folder) throw invalidRequest("parent_folder_file_id: Not a folder of this portal");
  }
  if (taskId !== null) {
    const task = await tx.task.findFirst({ where: { id: taskId, orgId, portalId, deletedAt: null }, select: { id: true } });
    if (!task) throw invalidRequest("task_id: Not a task of this portal");
  }
  return { parentId, taskId };
}
