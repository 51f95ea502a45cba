import type { Viewer } from "@/lib/access/viewer";
import type { OrderByModifiers } from "kysely";
import { db } from "@/lib/db";
import { invalidRequest, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { accessPortal } from "@/lib/access/access-portal";
import { constant, rows, sql } from "@/lib/sql";

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
const COLUMN = { name: null, size: "f.size", type: "f.extension", date: "f.registeredAt" } as const satisfies Record<
  Exclude<FolderSort, "uploader">,
  string | null
>;
/**
 * The root's parent in the page indexes: `COALESCE("parentId", nil uuid)` makes "in the root" an
 * equality, which PostgreSQL can use to read an index in order (`"parentId" IS NULL` is not).
 */
const NIL_ID = "00000000-0000-0000-0000-000000000000";
/** Written into the SQL as a constant, exactly as in the indexes (a parameter would not match them). */
const NIL_PARENT = constant(NIL_ID, "uuid");

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
  const direction = dir === "desc" ? "desc" : "asc";
  const offset = (page - 1) * pageSize;
  if (id !== null && !isUuid(id)) throw notFound("Folder");
  // The folder's active children; the parent as the page indexes have it (an equality for the root too; see NIL_PARENT).
  const children = sql
    .selectFrom("FileEntry as f")
    .where("f.orgId", "=", orgId)
    .where("f.portalId", "=", portalId)
    .where((eb) => eb(eb.fn.coalesce("f.parentId", NIL_PARENT), "=", id ?? NIL_ID))
    .where("f.status", "=", "registered")
    .where("f.deletedAt", "is", null);
  const ofKind = (isFolder: boolean) => children.where("f.isFolder", "=", isFolder);
  // The uploader sort's key: the uploader's name, else e-mail; files without uploader last.
  const uploaderKey: OrderByModifiers = (ob) => (direction === "desc" ? ob.desc() : ob.asc()).nullsLast();

  // One aggregate places the page: the number of folders and of files (per uploader for that sort, in its order).
  const [breadcrumbs, counts] = await Promise.all([
    id === null ? Promise.resolve([]) : folderPath(orgId, portalId, id),
    sort === "uploader"
      ? rows(
          sql
            .selectFrom(
              children
                .select((eb) => ["f.isFolder as folder", "f.uploadedById as uid", eb.cast<number>(eb.fn.countAll(), "integer").as("n")])
                .groupBy(["f.isFolder", "f.uploadedById"])
                .as("g"),
            )
            .leftJoin("User as u", "u.id", "g.uid")
            .select(["g.folder", "g.uid", "g.n"])
            .orderBy((eb) => eb.fn.coalesce("u.name", "u.email"), uploaderKey)
            .orderBy("g.uid", direction),
        )
      : rows(
          children.select((eb) => ["f.isFolder as folder", eb.lit(null).as("uid"), eb.cast<number>(eb.fn.countAll(), "integer").as("n")]).groupBy("f.isFolder"),
        ),
  ]);
  const folders = counts.filter((c) => c.folder).reduce((sum, c) => sum + c.n, 0);
  const groups = counts.filter((c) => !c.folder);
  const files = groups.reduce((sum, g) => sum + g.n, 0);
  const folderTake = Math.max(0, Math.min(folders - offset, pageSize));
  const fileSkip = Math.max(0, offset - folders);
  const fileTake = pageSize - folderTake;

  // Each page's ids in index order, then their details (uploader, linked task) in the same order.
  // Ties by name then id, every key in the chosen direction.
  const keys = [...(sort === "uploader" || COLUMN[sort] === null ? [] : [COLUMN[sort]]), "f.name", "f.id"] as const;
  const idsOf = (isFolder: boolean) => ofKind(isFolder).select("f.id");
  type PageIds = ReturnType<typeof idsOf>;
  const inOrder = (q: PageIds) => keys.reduce((ordered, key) => ordered.orderBy(key, direction), q);
  const byUploader = (q: PageIds) =>
    inOrder(
      q
        .leftJoin("User as u", "u.id", "f.uploadedById")
        .orderBy((eb) => eb.fn.coalesce("u.name", "u.email"), uploaderKey)
        .orderBy("f.uploadedById", direction),
    );
  const details = (pageIds: PageIds, uploaderOrder: boolean) => {
    const joined = sql
      .selectFrom(pageIds.as("p"))
      .innerJoin("FileEntry as f", "f.id", "p.id")
      .leftJoin("User as u", "u.id", "f.uploadedById")
      .leftJoin("Task as t", (join) => join.onRef("t.id", "=", "f.taskId").on("t.deletedAt", "is", null))
      .select((eb) => [
        "f.id",
        "f.name",
        "f.isFolder",
        "f.size",
        "f.extension",
        "f.contentType",
        eb.fn.coalesce("f.registeredAt", "f.createdAt").as("uploadedAt"),
        "u.id as uploaderId",
        "u.name as uploaderName",
        "u.email as uploaderEmail",
        "t.id as taskId",
        "t.title as taskTitle",
      ]);
    const ordered = uploaderOrder ? joined.orderBy((eb) => eb.fn.coalesce("u.name", "u.email"), uploaderKey).orderBy("f.uploadedById", direction) : joined;
    return rows(keys.reduce((q, key) => q.orderBy(key, direction), ordered));
  };

  const folderRows =
    folderTake === 0
      ? Promise.resolve([])
      : details((sort === "uploader" ? byUploader : inOrder)(idsOf(true)).limit(folderTake).offset(offset), sort === "uploader");

  let fileRows: Promise<Awaited<ReturnType<typeof details>>[]>;
  if (fileTake === 0 || fileSkip >= files) fileRows = Promise.resolve([]);
  else if (sort !== "uploader") {
    fileRows = Promise.all([details(inOrder(idsOf(false)).limit(fileTake).offset(fileSkip), false)]);
  } else {
    // The uploaders whose files overlap the page, each read from where the page starts in it.
    const reads: ReturnType<typeof details>[] = [];
    let before = 0;
    for (const g of groups) {
      const from = Math.max(fileSkip, before);
      const to = Math.min(fileSkip + fileTake, before + g.n);
      if (from < to) {
        const ofUploader = g.uid === null ? ofKind(false).where("f.uploadedById", "is", null) : ofKind(false).where("f.uploadedById", "=", g.uid);
        reads.push(
          details(
            inOrder(ofUploader.select("f.id"))
              .limit(to - from)
              .offset(from - before),
            false,
          ),
        );
      }
      before += g.n;
      if (before >= fileSkip + fileTake) break;
    }
    fileRows = Promise.all(reads);
  }
  const [folderPage, filePages] = await Promise.all([folderRows, fileRows]);
  const entries = [...folderPage, ...filePages.flat()];
  return {
    folder: breadcrumbs.at(-1) ?? null,
    breadcrumbs,
    total: folders + files,
    page,
    pageSize,
    items: entries.map((r) => ({
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
  const path = await rows(
    sql
      .withRecursive("up(id, name, parentId, depth)", (db) =>
        db
          .selectFrom("FileEntry")
          .select((eb) => ["id", "name", "parentId", eb.lit(0).as("depth")])
          .where("id", "=", folderId)
          .where("orgId", "=", orgId)
          .where("portalId", "=", portalId)
          .where("isFolder", "=", true)
          .where("status", "=", "registered")
          .where("deletedAt", "is", null)
          .unionAll(
            db
              .selectFrom("FileEntry as f")
              .innerJoin("up", "up.parentId", "f.id")
              .select((eb) => ["f.id", "f.name", "f.parentId", eb("up.depth", "+", 1).as("depth")]),
          ),
      )
      .selectFrom("up")
      .select(["id", "name", "depth"])
      .orderBy("depth", "desc"),
  );
  if (path.length === 0) throw notFound("Folder");
  return path.map(({ id, name }) => ({ id, name }));
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
