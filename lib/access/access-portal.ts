import { portalWhere, requirePortal, type PortalAction } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/**
 * The guard and the existence check of a portal in one: the viewer may do `action` there and the
 * portal is active in the viewer's organization (404 otherwise). For reads and writes of what is
 * inside a portal.
 */
export async function accessPortal(viewer: Viewer, portalId: string, action: PortalAction): Promise<{ id: string }> {
  requirePortal(viewer, portalId, action);
  const portal = isUuid(portalId) ? await db.portal.findFirst({ where: { AND: [portalWhere(viewer, action), { id: portalId }] }, select: { id: true } }) : null;
  if (!portal) throw notFound("Portal");
  return portal;
}
