import { taskWhere } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { afterCursor, PAGE_ORDER, type Cursor, splitPage } from "@/lib/pagination";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { accessPortal } from "@/lib/access/access-portal";

export const TASK_INCLUDE = {
  assignees: { orderBy: [{ type: "asc" }, { email: "asc" }] },
  files: { where: { status: "registered", deletedAt: null, isFolder: false }, select: { id: true }, orderBy: PAGE_ORDER },
  formFields: { orderBy: { position: "asc" }, select: { id: true, label: true, kind: true, required: true, options: true } },
  signers: { orderBy: { position: "asc" }, select: { userId: true, name: true, email: true, type: true, signedAt: true } },
} satisfies Prisma.TaskInclude;

/**
 * Active (not deleted) tasks of a portal with their assignees and attached file ids, in creation
 * order (D5); `next` when more exist. 404 for a portal that is not the organization's (D4).
 */
export async function listPortalTasks({ viewer, portalId, limit = 1000, cursor }: { viewer: Viewer; portalId: string; limit?: number; cursor?: Cursor }) {
  await accessPortal(viewer, portalId, "viewTasks");
  const rows = await db.task.findMany({
    where: { AND: [taskWhere(viewer, "viewTasks"), { portalId, ...afterCursor(cursor) }] },
    orderBy: PAGE_ORDER,
    take: limit + 1,
    include: TASK_INCLUDE,
  });
  return splitPage(rows, limit);
}

export type TaskWithRelations = Awaited<ReturnType<typeof listPortalTasks>>["items"][number];
