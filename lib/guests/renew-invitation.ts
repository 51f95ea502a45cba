import { systemViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { invitationTokenHash } from "./invitation-token";
import { inviteGuests } from "./invite-guests";

// "Send me a fresh one": the holder of an expired invitation link asks for a new link, sent to the
// invited address only (so the link itself proves nothing beyond having received that email).

export type RenewOutcome = "sent" | "already_sent" | "unavailable";

/**
 * A new invitation for an expired link's address and portal, as a re-invitation (inviteGuests:
 * new link, email, `guest.invited`, `guest.reinvited` audit row by the system). Nothing is sent
 * for a link that is unknown, not expired, used, of a deleted portal or of a guest since removed
 * ("unavailable"), nor while a newer link for the same address and portal is still valid
 * ("already_sent"), so repeated clicks send one email.
 */
export async function renewExpiredInvitation(token: string): Promise<RenewOutcome> {
  if (!token || token.length > 200) return "unavailable";
  const invitation = await db.invitation.findUnique({ where: { tokenHash: invitationTokenHash(token) }, include: { portal: { select: { deletedAt: true } } } });
  const now = new Date();
  if (!invitation || invitation.acceptedAt || invitation.expiresAt > now || invitation.portal.deletedAt) return "unavailable";
  const { orgId, portalId, email } = invitation;
  const stillGuest = await db.portalGuest.findFirst({ where: { orgId, portalId, user: { email } }, select: { id: true } });
  if (!stillGuest) return "unavailable";
  const newer = await db.invitation.findFirst({ where: { orgId, portalId, email, acceptedAt: null, expiresAt: { gt: now } }, select: { id: true } });
  if (newer) return "already_sent";
  await inviteGuests({ viewer: systemViewer(orgId), portalId, guests: [{ email, name: null }] });
  return "sent";
}
