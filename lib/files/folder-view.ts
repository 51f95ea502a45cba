import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { invalidRequest, notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { accessPortal } from "@/lib/access/access-portal";

// One folder of a portal as the portal page shows it: its children a page at a time in the
// chosen order, with uploader and linked task, the path from the root and the folder tree.

export const FOLDER_SORTS = ["name", "size", "type", "uploader", "date"] as const;
export type FolderSort = (typeof FOLDER_SORTS)[number];
const MAX_PAGE_SIZE = 200;

interface FolderItem {
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

// Whitelisted ORDER BY keys of each sort, ties by name then id, every key in the chosen direction.
// Folders come first: the folders and the files of a page are read separately, each in the
// order of an index (portalId, parentId, isFolder, <column>, name, id), so a page of a folder of
// 10,000 files reads its 50 rows, not 10,000 (scripts/bench/folder-view.ts). The uploader sort
// needs the user's name: files are grouped by uploader first (one small aggregate), and only the
// uploaders whose files fall on the page are read, each in (uploadedById, name, id) index order.
const COLUMN: Record<Exclude<FolderSort, "uploader">, Prisma.Sql | null> = {
  name: null,
  size: Prisma.sql`f.size`,
  type: Prisma.sql`f.extension`,
  date: Prisma.sql`f."registeredAt"`,
};
const UPLOADER_KEY = Prisma.sql`COALESCE(u.name, u.email)`;
/**
 * The root's parent in the page indexes: `COALESCE("parentId", nil uuid)` makes "in the root" an
 * equality, which PostgreSQL can use to read an index in order (`"parentId" IS NULL` is not).
 */
const NIL_ID = "00000000-0000-0000-0000-000000000000";
/** Written into the SQL as a constant, exactly as in the indexes (a parameter would not match them). */
const NIL_PARENT = Prisma.raw(`'${NIL_ID}'::uuid`);

type Row = Omit<FolderItem, "uploader" | "task"> & {
  uploaderId: string | null;
  uploaderName: string | null;
  uploaderEmail: string | null;
  taskId: string | null;
  taskTitle: string | null;
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
  const direction = dir === "desc" ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  // The parent as the page indexes have it (an equality for the root too; see NIL_PARENT).
  const children = Prisma.sql`f."orgId" = ${orgId}::uuid AND f."portalId" = ${portalId}::uuid
      AND COALESCE(f."parentId", ${NIL_PARENT}) = ${id ?? NIL_ID}::uuid AND f.status = 'registered' AND f."deletedAt" IS NULL`;
  const where = (isFolder: boolean) => Prisma.sql`${children} AND f."isFolder" = ${isFolder}`;
  const offset = (page - 1) * pageSize;
  if (id !== null && !isUuid(id)) throw notFound("Folder");

  // One aggregate places the page: the number of folders and of files (per uploader for that sort, in its order).
  const [breadcrumbs, counts] = await Promise.all([
    id === null ? Promise.resolve([]) : folderPath(orgId, portalId, id),
    sort === "uploader"
      ? db.$queryRaw<{ folder: boolean; uid: string | null; n: number }[]>`
          SELECT g.folder, g.uid::text AS uid, g.n FROM (
            SELECT f."isFolder" AS folder, f."uploadedById" AS uid, COUNT(*)::int AS n FROM "FileEntry" f WHERE ${children} GROUP BY 1, 2
          ) g LEFT JOIN "User" u ON u.id = g.uid
          ORDER BY ${UPLOADER_KEY} ${direction} NULLS LAST, g.uid ${direction}`
      : db.$queryRaw<{ folder: boolean; uid: null; n: number }[]>`
          SELECT f."isFolder" AS folder, NULL AS uid, COUNT(*)::int AS n FROM "FileEntry" f WHERE ${children} GROUP BY 1`,
  ]);
  const folders = counts.filter((c) => c.folder).reduce((sum, c) => sum + c.n, 0);
  const groups = counts.filter((c) => !c.folder);
  const files = groups.reduce((sum, g) => sum + g.n, 0);
  const folderTake = Math.max(0, Math.min(folders - offset, pageSize));
  const fileSkip = Math.max(0, offset - folders);
  const fileTake = pageSize - folderTake;

  const details = (pageIds: Prisma.Sql, order: Prisma.Sql) => db.$queryRaw<Row[]>`
      SELECT f.id::text AS id, f.name, f."isFolder", f.size, f.extension, f."contentType", COALESCE(f."registeredAt", f."createdAt") AS "uploadedAt",
             u.id::text AS "uploaderId", u.name AS "uploaderName", u.email AS "uploaderEmail",
             t.id::text AS "taskId", t.title AS "taskTitle"
      FROM (${pageIds}) p
      JOIN "FileEntry" f ON f.id = p.id
      LEFT JOIN "User" u ON u.id = f."uploadedById"
      LEFT JOIN "Task" t ON t.id = f."taskId" AND t."deletedAt" IS NULL
      ORDER BY ${order}`;
  const ordered = (key: Prisma.Sql | null) =>
    key ? Prisma.sql`${key} ${direction}, f.name ${direction}, f.id ${direction}` : Prisma.sql`f.name ${direction}, f.id ${direction}`;
  const uploaderOrder = Prisma.sql`${UPLOADER_KEY} ${direction} NULLS LAST, f."uploadedById" ${direction}, f.name ${direction}, f.id ${direction}`;

  const folderRows =
    folderTake === 0
      ? Promise.resolve([])
      : sort === "uploader"
        ? details(
            Prisma.sql`SELECT f.id FROM "FileEntry" f LEFT JOIN "User" u ON u.id = f."uploadedById" WHERE ${where(true)} ORDER BY ${uploaderOrder} LIMIT ${folderTake} OFFSET ${offset}`,
            uploaderOrder,
          )
        : details(
            Prisma.sql`SELECT f.id FROM "FileEntry" f WHERE ${where(true)} ORDER BY ${ordered(COLUMN[sort])} LIMIT ${folderTake} OFFSET ${offset}`,
            ordered(COLUMN[sort]),
          );

  let fileRows: Promise<Row[][]>;
  if (fileTake === 0 || fileSkip >= files) fileRows = Promise.resolve([]);
  else if (sort !== "uploader") {
    const order = ordered(COLUMN[sort]);
    fileRows = Promise.all([
      details(Prisma.sql`SELECT f.id FROM "FileEntry" f WHERE ${where(false)} ORDER BY ${order} LIMIT ${fileTake} OFFSET ${fileSkip}`, order),
    ]);
  } else {
    // The uploaders whose files overlap the page, each read from where the page starts in it.
    const reads: Promise<Row[]>[] = [];
    let before = 0;
    for (const g of groups) {
      const from = Math.max(fileSkip, before);
      const to = Math.min(fileSkip + fileTake, before + g.n);
      if (from < to) {
        const byUploader = g.uid === null ? Prisma.sql`f."uploadedById" IS NULL` : Prisma.sql`f."uploadedById" = ${g.uid}::uuid`;
        reads.push(
          details(
            Prisma.sql`SELECT f.id FROM "FileEntry" f WHERE ${where(false)} AND ${byUploader} ORDER BY ${ordered(null)} LIMIT ${to - from} OFFSET ${from - before}`,
            ordered(null),
          ),
        );
      }
      before += g.n;
      if (before >= fileSkip + fileTake) break;
    }
    fileRows = Promise.all(reads);
  }
  const [folderPage, filePages] = await Promise.all([folderRows, fileRows]);
  const rows = [...folderPage, ...filePages.flat()];
  return {
    folder: breadcrumbs.at(-1) ?? null,
    breadcrumbs,
    total: folders + files,
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

/**
 * The breadcrumbs of a folder of the portal (null or "main": the root, none): 404 "Folder" when it
 * is not an active folder of this portal. The folder page's layout asks before its loading
 * skeleton streams, so that a folder id of another portal or organization answers 404, not a
 * 200 whose streamed body says not found.
 */
export async function getFolderPath({ viewer, portalId, folderId }: { viewer: Viewer; portalId: string; folderId: string | null }): Promise<FolderCrumb[]> {
  await accessPortal(viewer, portalId, "listFiles");
  return folderId === null || folderId === "main" ? [] : folderPath(viewer.orgId, portalId, folderId);
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
