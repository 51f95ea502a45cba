import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { invalidRequest, notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { accessPortal } from "@/lib/portals/get-portal";

// One folder of a portal as the portal page shows it: its children a page at a time in the
// chosen order, with uploader and linked task, the path from the root and the folder tree.

export const FOLDER_SORTS = ["name", "size", "type", "uploader", "date"] as const;
export type FolderSort = (typeof FOLDER_SORTS)[number];
export const MAX_PAGE_SIZE = 200;

export interface FolderItem {
  id: string;
  name: string;
  isFolder: boolean;
  size: number;
  extension: string;
  contentType: string | null;
  uploadedAt: Date;
  uploader: { id: string; name: string | null; email: string } | null;
  task: { id: string; title: string } | null;
}

export interface FolderCrumb {
  id: string;
  name: string;
}

export interface FolderView {
  /** null: the portal root (`main` in the link). */
  folder: FolderCrumb | null;
  /** The folders from the root down to this one, this one included; empty at the root. */
  breadcrumbs: FolderCrumb[];
  items: FolderItem[];
  total: number;
  page: number;
  pageSize: number;
}

// Whitelisted ORDER BY terms: the column of each sort; folders always come first, ties by name then id.
const ORDER: Record<FolderSort, Prisma.Sql> = {
  name: Prisma.sql`f.name`,
  size: Prisma.sql`f.size`,
  type: Prisma.sql`f.extension`,
  uploader: Prisma.sql`COALESCE(u.name, u.email)`,
  date: Prisma.sql`f."registeredAt"`,
};

/**
 * A folder's active children (`folderId` null or "main": the root), sorted by `sort` (`dir`
 * ascending or descending; folders first either way) and paginated (`page` from 1, `pageSize`
 * 1-200). A folder id that is not an active folder of the portal is 404 "Folder".
 */
export async function getFolderView({
  viewer,
  portalId,
  folderId,
  sort = "name",
  dir = "asc",
  page = 1,
  pageSize = 50,
}: {
  viewer: Viewer;
  portalId: string;
  folderId: string | null;
  sort?: FolderSort;
  dir?: "asc" | "desc";
  page?: number;
  pageSize?: number;
}): Promise<FolderView> {
  if (!FOLDER_SORTS.includes(sort)) throw invalidRequest(`sort: One of ${FOLDER_SORTS.join(", ")}`);
  if (!Number.isInteger(page) || page < 1) throw invalidRequest("page: A whole number from 1");
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) throw invalidRequest(`pageSize: A whole number from 1 to ${MAX_PAGE_SIZE}`);
  await accessPortal(viewer, portalId, "listFiles");
  const { orgId } = viewer;
  const id = folderId === "main" ? null : folderId;
  const breadcrumbs = id === null ? [] : await folderPath(orgId, portalId, id);

  const direction = dir === "desc" ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const where = Prisma.sql`f."orgId" = ${orgId}::uuid AND f."portalId" = ${portalId}::uuid AND ${id === null ? Prisma.sql`f."parentId" IS NULL` : Prisma.sql`f."parentId" = ${id}::uuid`}
      AND f.status = 'registered' AND f."deletedAt" IS NULL`;
  const order = Prisma.sql`f."isFolder" DESC, ${ORDER[sort]} ${direction} NULLS LAST, f.name ${direction}, f.id`;
  // The page is chosen on FileEntry alone (its indexes), joined to uploader and task afterwards;
  // only the uploader sort needs the user first.
  const pageIds =
    sort === "uploader"
      ? Prisma.sql`SELECT f.id FROM "FileEntry" f LEFT JOIN "User" u ON u.id = f."uploadedById" WHERE ${where} ORDER BY ${order} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`
      : Prisma.sql`SELECT f.id FROM "FileEntry" f WHERE ${where} ORDER BY ${order} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
  const [rows, [count]] = await Promise.all([
    db.$queryRaw<
      (Omit<FolderItem, "uploader" | "task"> & {
        uploaderId: string | null;
        uploaderName: string | null;
        uploaderEmail: string | null;
        taskId: string | null;
        taskTitle: string | null;
      })[]
    >`
      SELECT f.id::text AS id, f.name, f."isFolder", f.size, f.extension, f."contentType", COALESCE(f."registeredAt", f."createdAt") AS "uploadedAt",
             u.id::text AS "uploaderId", u.name AS "uploaderName", u.email AS "uploaderEmail",
             t.id::text AS "taskId", t.title AS "taskTitle"
      FROM (${pageIds}) p
      JOIN "FileEntry" f ON f.id = p.id
      LEFT JOIN "User" u ON u.id = f."uploadedById"
      LEFT JOIN "Task" t ON t.id = f."taskId" AND t."deletedAt" IS NULL
      ORDER BY ${order}`,
    db.$queryRaw<{ total: bigint }[]>`SELECT COUNT(*) AS total FROM "FileEntry" f WHERE ${where}`,
  ]);
  const total = Number(count?.total ?? 0);
  return {
    folder: breadcrumbs.at(-1) ?? null,
    breadcrumbs,
    total,
    page,
    pageSize,
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      isFolder: r.isFolder,
      size: r.size,
      extension: r.extension,
      contentType: r.contentType,
      uploadedAt: r.uploadedAt,
      uploader: r.uploaderId ? { id: r.uploaderId, name: r.uploaderName, email: r.uploaderEmail! } : null,
      task: r.taskId ? { id: r.taskId, title: r.taskTitle! } : null,
    })),
  };
}

/** The active folders from the root down to `folderId`; 404 "Folder" when it is not an active folder of the portal. */
async function folderPath(orgId: string, portalId: string, folderId: string): Promise<FolderCrumb[]> {
  if (!isUuid(folderId)) throw notFound("Folder");
  const rows = await db.$queryRaw<(FolderCrumb & { depth: number })[]>`
    WITH RECURSIVE up AS (
      SELECT id, name, "parentId", 0 AS depth FROM "FileEntry"
      WHERE id = ${folderId}::uuid AND "orgId" = ${orgId}::uuid AND "portalId" = ${portalId}::uuid
        AND "isFolder" AND status = 'registered' AND "deletedAt" IS NULL
      UNION ALL
      SELECT f.id, f.name, f."parentId", up.depth + 1 FROM "FileEntry" f JOIN up ON f.id = up."parentId"
    )
    SELECT id::text AS id, name, depth FROM up ORDER BY depth DESC`;
  if (rows.length === 0) throw notFound("Folder");
  return rows.map(({ id, name }) => ({ id, name }));
}

export interface FolderTreeNode extends FolderCrumb {
  children: FolderTreeNode[];
}

/** Every active folder of the portal as a tree (for the side panel and the move dialog), by name at each level. */
export async function getFolderTree({ viewer, portalId }: { viewer: Viewer; portalId: string }): Promise<FolderTreeNode[]> {
  await accessPortal(viewer, portalId, "listFiles");
  const folders = await db.fileEntry.findMany({
    where: { orgId: viewer.orgId, portalId, isFolder: true, status: "registered", deletedAt: null },
    select: { id: true, name: true, parentId: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  const nodes = new Map(folders.map((f) => [f.id, { id: f.id, name: f.name, children: [] as FolderTreeNode[] }]));
  const roots: FolderTreeNode[] = [];
  for (const f of folders) {
    const node = nodes.get(f.id)!;
    const parent = f.parentId ? nodes.get(f.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}
