import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { type Cursor, splitPage } from "@/lib/pagination";
import { accessPortal } from "@/lib/access/access-portal";
import { toPortalGuestView, type PortalGuestView } from "./manage-guests";

/** A guest with `createdAt`: the first invitation time, the list's order (with the id) as created_at is elsewhere. */
export type ListedGuest = PortalGuestView & { createdAt: Date };

/**
 * A page of a portal's guests in invitation order (D5 paging on the first invitation time and
 * the PortalGuest id; a re-invitation keeps a guest's place). Members, admins and clients with
 * `portal:read`; guests never see other guests. 404 for a portal that is not the organization's.
 */
export async function listGuests({ viewer, portalId, limit = 1000, cursor }: { viewer: Viewer; portalId: string; limit?: number; cursor?: Cursor }) {
  await accessPortal(viewer, portalId, "listGuests");
  const after = cursor ? { OR: [{ invitedAt: { gt: cursor.createdAt } }, { invitedAt: cursor.createdAt, id: { gt: cursor.id } }] } : {};
  const rows = await db.portalGuest.findMany({
    where: { orgId: viewer.orgId, portalId, ...after },
    include: { user: { select: { email: true, name: true } } },
    orderBy: [{ invitedAt: "asc" }, { id: "asc" }],
    take: limit + 1,
  });
  return splitPage(
    rows.map((g): ListedGuest => ({ ...toPortalGuestView(g), createdAt: g.invitedAt })),
    limit,
  );
}
