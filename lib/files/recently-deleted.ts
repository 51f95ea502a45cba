import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { accessPortal } from "@/lib/access/access-portal";
import { deletedRoots, RESTORE_WINDOW_MS } from "./entry-changes";

export interface DeletedEntry {
  id: string;
  name: string;
  isFolder: boolean;
  size: number;
  deletedAt: Date;
  /** When the nightly purge removes it for good. */
  purgeAfter: Date;
}

/**
 * The portal's "Recently deleted" view: entries deleted within the last 30 days that were deleted
 * themselves (not along with their folder, which restores them), newest first, at most `limit`.
 */
export async function listRecentlyDeleted({
  viewer,
  portalId,
  limit = 200,
  now = new Date(),
}: {
  viewer: Viewer;
  portalId: string;
  limit?: number;
  now?: Date;
}): Promise<DeletedEntry[]> {
  await accessPortal(viewer, portalId, "manageFiles");
  const since = new Date(now.getTime() - RESTORE_WINDOW_MS);
  const rows = await deletedRoots(db, { portal: { orgId: viewer.orgId, portalId }, since, newestFirst: true, limit });
  return rows.map(({ id, name, isFolder, size, deletedAt }) => ({
    id,
    name,
    isFolder,
    size,
    deletedAt,
    purgeAfter: new Date(deletedAt.getTime() + RESTORE_WINDOW_MS),
  }));
}
