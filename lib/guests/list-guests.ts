import { readGuestPermissions, type GuestPermissions } from "@/lib/access/permissions";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { type Cursor, splitPage } from "@/lib/pagination";
import { accessPortal } from "@/lib/portals/get-portal";

export interface ListedGuest {
  /** The PortalGuest's invitation time: the list's order (with the id), as created_at is elsewhere. */
  createdAt: Date;
  id: string;
  userId: string;
  email: string;
  name: string | null;
  state: "invited" | "accepted";
  invitedAt: Date;
  acceptedAt: Date | null;
  permissions: GuestPermissions;
}

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
  const guests: ListedGuest[] = rows.map((g) => ({
    createdAt: g.invitedAt,
    id: g.id,
    userId: g.userId,
    email: g.user.email,
    name: g.user.name,
    state: g.acceptedAt ? "accepted" : "invited",
    invitedAt: g.invitedAt,
    acceptedAt: g.acceptedAt,
    permissions: readGuestPermissions(g.permissions),
  }));
  return splitPage(guests, limit);
}
