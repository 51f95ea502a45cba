import { requireOrg } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { invalidRequest, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { deleteObjects } from "@/lib/storage/objects";
import { lockPortal } from "./lock-portal";

const keysOf = async (orgId: string, portalId: string) =>
  (await db.fileEntry.findMany({ where: { orgId, portalId, storageKey: { not: null } }, select: { storageKey: true } })).map((f) => f.storageKey!);

/**
 * Deletes a portal for good (admins, web only), confirmed by its exact name: its stored objects
 * first (every entry's, pending and deleted ones included), so a storage failure leaves the
 * portal whole for a retry; then its rows (files, tasks, guests, invitations, external ids and
 * partner link go with it, freeing its (system, id) pairs). Its audit rows stay, detached from
 * it, and an organization-level `portal.deleted` row keeps its id and name.
 */
export async function deletePortal({
  viewer,
  portalId,
  confirmName,
}: {
  viewer: Viewer;
  portalId: string;
  confirmName: string;
}): Promise<{ portalId: string; name: string; objects: number }> {
  requireOrg(viewer, "deletePortal");
  const { orgId } = viewer;
  const portal = isUuid(portalId) ? await db.portal.findFirst({ where: { id: portalId, orgId, deletedAt: null }, select: { id: true, name: true } }) : null;
  if (!portal) throw notFound("Portal");
  if (confirmName !== portal.name) throw invalidRequest(`confirmName: Type the portal's name exactly as shown ("${portal.name}") to delete it`);

  const keys = await keysOf(orgId, portalId);
  await deleteObjects(keys);
  return db.$transaction(
    async (tx) => {
      await lockPortal(tx, { orgId, portalId, forDelete: true });
      // An upload that started meanwhile: its object goes too before its row does.
      const known = new Set(keys);
      const late = (await keysOf(orgId, portalId)).filter((k) => !known.has(k));
      await deleteObjects(late);
      await tx.portal.delete({ where: { id: portalId } });
      await recordAudit(tx, {
        orgId,
        portalId: null,
        actor: actorOf(viewer),
        action: "portal.deleted",
        targetType: "portal",
        targetId: portalId,
        metadata: { portalId, name: portal.name, objects: keys.length + late.length },
      });
      return { portalId, name: portal.name, objects: keys.length + late.length };
    },
    { timeout: 60_000 },
  );
}
