import { fileWhere, portalWhere, requirePortal, type PortalAction } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import type { Tx } from "@/lib/db";
import { invalidRequest, notFound } from "@/lib/errors";
import { Prisma, type FileEntry } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { lockPortal } from "@/lib/portals/lock-portal";
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
export async function descendantIds(tx: Pick<Tx, "$queryRaw">, folderId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    WITH RECURSIVE tree AS (
      SELECT id FROM "FileEntry" WHERE "parentId" = ${folderId}::uuid
      UNION ALL
      SELECT f.id FROM "FileEntry" f JOIN tree t ON f."parentId" = t.id
    )
    SELECT id::text AS id FROM tree`;
  return rows.map((r) => r.id);
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

export interface DeletedRoot {
  id: string;
  orgId: string;
  portalId: string;
  name: string;
  isFolder: boolean;
  size: number;
  deletedAt: Date;
}

/**
 * Deleted registered entries that were deleted themselves, not along with their folder (whose
 * restore or purge takes them too): the parent is active, gone, or was deleted at another
 * instant. Oldest or newest first; narrowed to one portal and a deletion time range.
 */
export async function deletedRoots(
  tx: Pick<Tx, "$queryRaw">,
  {
    portal,
    since,
    before,
    newestFirst = false,
    limit,
  }: { portal?: { orgId: string; portalId: string }; since?: Date; before?: Date; newestFirst?: boolean; limit: number },
): Promise<DeletedRoot[]> {
  const where = [
    Prisma.sql`f.status = 'registered'`,
    Prisma.sql`f."deletedAt" IS NOT NULL`,
    Prisma.sql`(p.id IS NULL OR p."deletedAt" IS NULL OR p."deletedAt" <> f."deletedAt")`,
  ];
  if (portal) where.push(Prisma.sql`f."orgId" = ${portal.orgId}::uuid AND f."portalId" = ${portal.portalId}::uuid`);
  if (since) where.push(Prisma.sql`f."deletedAt" >= ${since}`);
  if (before) where.push(Prisma.sql`f."deletedAt" < ${before}`);
  const order = newestFirst ? Prisma.sql`f."deletedAt" DESC, f.id` : Prisma.sql`f."deletedAt" ASC, f.id`;
  return tx.$queryRaw<DeletedRoot[]>`
    SELECT f.id::text AS id, f."orgId"::text AS "orgId", f."portalId"::text AS "portalId", f.name, f."isFolder", f.size, f."deletedAt"
    FROM "FileEntry" f LEFT JOIN "FileEntry" p ON p.id = f."parentId"
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY ${order}
    LIMIT ${limit}`;
}
