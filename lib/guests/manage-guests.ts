import { requirePortal } from "@/lib/access/policy";
import { readGuestPermissions, type GuestPermissions } from "@/lib/access/permissions";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { accessPortal } from "@/lib/access/access-portal";
import { lockPortal } from "@/lib/portals/lock-portal";
import { inviteGuests } from "./invite-guests";

// The guests panel of a portal: who, in which state, with which permissions; resend; remove.

export interface PortalGuestView {
  /** PortalGuest.id */
  id: string;
  userId: string;
  email: string;
  name: string | null;
  state: "invited" | "accepted";
  invitedAt: Date;
  lastInvitedAt: Date;
  acceptedAt: Date | null;
  lastSeenAt: Date | null;
  permissions: GuestPermissions;
}

/** The portal's guests by email, each with state, dates and typed permissions (members and admins). */
export async function listPortalGuests({ viewer, portalId }: { viewer: Viewer; portalId: string }): Promise<PortalGuestView[]> {
  await accessPortal(viewer, portalId, "invite");
  const rows = await db.portalGuest.findMany({
    where: { orgId: viewer.orgId, portalId },
    include: { user: { select: { email: true, name: true } } },
    orderBy: [{ user: { email: "asc" } }],
  });
  return rows.map(toPortalGuestView);
}

type GuestRow = Omit<PortalGuestView, "email" | "name" | "state" | "permissions"> & { permissions: unknown; user: { email: string; name: string | null } };

/** A PortalGuest row with its user's email and name, as the guests panel and the API show it. */
export function toPortalGuestView(g: GuestRow): PortalGuestView {
  return {
    id: g.id,
    userId: g.userId,
    email: g.user.email,
    name: g.user.name,
    state: g.acceptedAt ? "accepted" : "invited",
    invitedAt: g.invitedAt,
    lastInvitedAt: g.lastInvitedAt,
    acceptedAt: g.acceptedAt,
    lastSeenAt: g.lastSeenAt,
    permissions: readGuestPermissions(g.permissions),
  };
}

async function findGuest(viewer: Viewer, portalId: string, guestId: string) {
  const guest = isUuid(guestId)
    ? await db.portalGuest.findFirst({
        where: { id: guestId, orgId: viewer.orgId, portalId, portal: { deletedAt: null } },
        include: { user: { select: { email: true, name: true } } },
      })
    : null;
  if (!guest) throw notFound("Guest");
  return guest;
}

/**
 * Sends a guest a new invitation link: a re-invitation through inviteGuests (D16), so it writes
 * the same rows, email, `guest.invited` event and `guest.reinvited` audit row as the API's.
 */
export async function resendInvitation({ viewer, portalId, guestId }: { viewer: Viewer; portalId: string; guestId: string }): Promise<void> {
  requirePortal(viewer, portalId, "invite");
  const guest = await findGuest(viewer, portalId, guestId);
  await inviteGuests({ viewer, portalId, guests: [{ email: guest.user.email, name: guest.user.name }] });
}

/**
 * Removes a guest from a portal: their access ends at once (the next viewer made for them no
 * longer has the portal) and their open invitation links to it stop working. Their uploads stay.
 */
export async function removeGuest({ viewer, portalId, guestId }: { viewer: Viewer; portalId: string; guestId: string }): Promise<void> {
  requirePortal(viewer, portalId, "invite");
  const { orgId } = viewer;
  await db.$transaction(async (tx) => {
    await lockPortal(tx, { orgId, portalId });
    const guest = await findGuest(viewer, portalId, guestId);
    await tx.portalGuest.delete({ where: { id: guest.id } });
    await tx.invitation.deleteMany({ where: { orgId, portalId, email: guest.user.email, acceptedAt: null } });
    await recordAudit(tx, {
      orgId,
      portalId,
      actor: actorOf(viewer),
      action: "guest.removed",
      targetType: "guest",
      targetId: guest.id,
      metadata: { email: guest.user.email, user_id: guest.userId },
    });
  });
}

const SEEN_EVERY_MS = 5 * 60 * 1000;

/** Records a guest's page view in the organization (every portal of theirs), at most every 5 minutes. */
export async function markGuestSeen({ orgId, userId, now = new Date() }: { orgId: string; userId: string; now?: Date }): Promise<void> {
  await db.portalGuest.updateMany({
    where: { orgId, userId, OR: [{ lastSeenAt: null }, { lastSeenAt: { lt: new Date(now.getTime() - SEEN_EVERY_MS) } }] },
    data: { lastSeenAt: now },
  });
}
