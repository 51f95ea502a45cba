import { fileWhere } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { afterCursor, PAGE_ORDER, type Cursor, splitPage } from "@/lib/pagination";
import { db } from "@/lib/db";
import type { FileEntry } from "@/lib/generated/prisma/client";
import { accessPortal } from "@/lib/access/access-portal";

/**
 * Every active entry of a portal, files and folders, flat (D10): registered and not deleted, so
 * pending two-step uploads never show. Ordered by creation then id (D5); `next` when more exist.
 * 404 for a portal that is not the organization's.
 */
export async function listPortalFiles({
  viewer,
  portalId,
  limit = 1000,
  cursor,
}: {
  viewer: Viewer;
  portalId: string;
  limit?: number;
  cursor?: Cursor;
}): Promise<{ items: FileEntry[]; next: Cursor | null }> {
  await accessPortal(viewer, portalId, "listFiles");
  const rows = await db.fileEntry.findMany({
    where: { AND: [fileWhere(viewer, "listFiles"), { portalId, ...afterCursor(cursor) }] },
    orderBy: PAGE_ORDER,
    take: limit + 1,
  });
  return splitPage(rows, limit);
}
