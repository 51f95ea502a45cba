import { fileWhere, portalWhere, requirePortal, type PortalAction } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import type { Tx } from "@/lib/db";
import { invalidRequest, notFound } from "@/lib/errors";
import type { FileEntry, Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { lockPortal } from "@/lib/portals/lock-portal";
import { rows, sql } from "@/lib/sql";
import { filenameProblem } from "./filename";

// What every change of a file or folder entry does first, in the caller's transaction.

/** Deleted entries can be restored for this long; the nightly purge removes them afterwards. */
export const RESTORE_WINDOW_MS = 30 * 24 * 3600 * 1000;

/** Deleted entries of one portal still within the restore window (registered ones only). */
function recentlyDeletedWhere(viewer: Viewer, action: PortalAction, now = new Date()): Prisma.FileEntryWhereInput {
  return { orgId: viewer.orgId, status: "registered", deletedAt: { gte: new Date(now.getTime() - RESTORE_WINDOW_MS) }, portal: portalWhere(viewer, action) };
}

/**
 * The policy for `action` in the portal, the portal row locked (so entry changes and uploads of
 * one portal run one after another: nothing is uploaded into a folder being deleted), then the
 * entry as the where-builders let the viewer see it: active, or with `deleted` one deleted within
 * the restore window. 404 "File" otherwise.
 */
export async function lockEntryFor(
  tx: Tx,
  viewer: Viewer,
  { portalId, fileId, action, deleted = false }: { portalId: string; fileId: string; action: PortalAction; deleted?: boolean },
): Promise<FileEntry> {
  requirePortal(viewer, portalId, action, "File");
  await lockPortal(tx, { orgId: viewer.orgId, portalId });
  if (!isUuid(fileId)) throw notFound("File");
  const visible = deleted ? recentlyDeletedWhere(viewer, action) : fileWhere(viewer, action);
  const entry = await tx.fileEntry.findFirst({ where: { AND: [visible, { id: fileId, portalId }] } });
  if (!entry) throw notFound("File");
  return entry;
}

/** Ids of a folder's entries at every depth (any status, deleted or not), the folder excluded. */
export async function descendantIds(tx: Tx, folderId: string): Promise<string[]> {
  const tree = await rows(
    sql
      .withRecursive("tree(id)", (q) =>
        q
          .selectFrom("FileEntry")
          .select("id")
          .where("parentId", "=", folderId)
          .unionAll(q.selectFrom("FileEntry as f").innerJoin("tree as t", "f.parentId", "t.id").select("f.id")),
      )
      .selectFrom("tree")
      .select("id"),
    { tx },
  );
  return tree.map((r) => r.id);
}

/**
 * A folder target (null: the portal root): an active folder of the same portal, else 400 naming
 * `field`. The caller holds the portal lock.
 */
export async function checkFolderTarget(
  tx: Tx,
  { orgId, portalId, folderId, field }: { orgId: string; portalId: string; folderId: string | null; field: string },
): Promise<void> {
  if (folderId === null) return;
  const folder = isUuid(folderId)
    ? await tx.fileEntry.findFirst({ where: { id: folderId, orgId, portalId, isFolder: true, status: "registered", deletedAt: null }, select: { id: true } })
    : null;
  if (!folder) throw invalidRequest(`${field}: Not a folder of this portal`);
}

/** A new name as docs/decisions.md "Files" rules say (trimmed, 1-255, no separators or control characters). */
export function checkedName(name: string, field = "name"): string {
  const trimmed = name.trim();
  const problem = filenameProblem(trimmed);
  if (problem) throw invalidRequest(`${field}: ${problem}`);
  return trimmed;
}

export const entryKind = (entry: Pick<FileEntry, "isFolder">) => (entry.isFolder ? "folder" : "file");

/** The audit row of a change to one entry: `file.<verb>` or `folder.<verb>`, the entry as target. */
export function recordEntryAudit(
  tx: Tx,
  viewer: Viewer,
  entry: Pick<FileEntry, "id" | "portalId" | "isFolder">,
  verb: "deleted" | "renamed" | "moved" | "restored",
  metadata: Prisma.InputJsonObject,
) {
  const kind = entryKind(entry);
  return recordAudit(tx, {
    orgId: viewer.orgId,
    portalId: entry.portalId,
    actor: actorOf(viewer),
    action: `${kind}.${verb}`,
    targetType: kind,
    targetId: entry.id,
    metadata,
  });
}

export type DeletedRoot = Awaited<ReturnType<typeof deletedRoots>>[number];

/**
 * Deleted registered entries that were deleted themselves, not along with their folder (whose
 * restore or purge takes them too): the parent is active, gone, or was deleted at another
 * instant. Oldest or newest first; narrowed to one portal and a deletion time range.
 */
export async function deletedRoots(
  tx: Tx,
  {
    portal,
    since,
    before,
    newestFirst = false,
    limit,
  }: { portal?: { orgId: string; portalId: string }; since?: Date; before?: Date; newestFirst?: boolean; limit: number },
) {
  let statement = sql
    .selectFrom("FileEntry as f")
    .leftJoin("FileEntry as p", "p.id", "f.parentId")
    .select(["f.id", "f.orgId", "f.portalId", "f.name", "f.isFolder", "f.size", "f.deletedAt"])
    .where("f.status", "=", "registered")
    .where("f.deletedAt", "is not", null)
    .where((eb) => eb.or([eb("p.id", "is", null), eb("p.deletedAt", "is", null), eb("p.deletedAt", "<>", eb.ref("f.deletedAt"))]))
    .$narrowType<{ deletedAt: Date }>();
  if (portal) statement = statement.where("f.orgId", "=", portal.orgId).where("f.portalId", "=", portal.portalId);
  if (since) statement = statement.where("f.deletedAt", ">=", since);
  if (before) statement = statement.where("f.deletedAt", "<", before);
  const direction = newestFirst ? "desc" : "asc";
  return rows(statement.orderBy("f.deletedAt", direction).orderBy("f.id").limit(limit), { tx });
}
