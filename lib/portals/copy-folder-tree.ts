import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/db";

/**
 * Copies the folders of one portal into another, at every depth (files are not copied: a template
 * gives its structure). Only folders reachable from the root through non-deleted folders count.
 * Returns the number of folders created.
 */
export async function copyFolderTree(
  tx: Tx,
  { orgId, fromPortalId, toPortalId }: { orgId: string; fromPortalId: string; toPortalId: string },
): Promise<number> {
  const folders = await tx.fileEntry.findMany({
    where: { orgId, portalId: fromPortalId, isFolder: true, status: "registered", deletedAt: null },
    select: { id: true, parentId: true, name: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const children = new Map<string | null, typeof folders>();
  for (const f of folders) children.set(f.parentId, [...(children.get(f.parentId) ?? []), f]);

  // Breadth first from the root, so every parent row comes before its children.
  const now = new Date();
  const rows: { id: string; orgId: string; portalId: string; parentId: string | null; isFolder: true; name: string; registeredAt: Date }[] = [];
  const queue: { sourceId: string | null; copyId: string | null }[] = [{ sourceId: null, copyId: null }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    for (const folder of children.get(next.sourceId) ?? []) {
      const id = randomUUID();
      rows.push({ id, orgId, portalId: toPortalId, parentId: next.copyId, isFolder: true, name: folder.name, registeredAt: now });
      queue.push({ sourceId: folder.id, copyId: id });
    }
  }
  if (rows.length > 0) await tx.fileEntry.createMany({ data: rows });
  return rows.length;
}
