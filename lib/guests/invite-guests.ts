import { requirePortal } from "@/lib/access/policy";
import { actorOf, userIdOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { queueEmail } from "@/lib/email/send-email";
import { invitationEmail } from "@/lib/email/templates/invitation";
import { withChange } from "@/lib/events/with-change";
import { recordEvent } from "@/lib/events/record-event";
import type { Prisma } from "@/lib/generated/prisma/client";
import { lockPortal } from "@/lib/portals/lock-portal";
import { INVITATION_DAYS, invitationUrl, newInvitationToken } from "./invitation-token";
import type { GuestToInvite } from "./schemas";

export interface InvitedGuest {
  userId: string;
  email: string;
}

export interface InviteGuestsInput {
  viewer: Viewer;
  portalId: string;
  /** Distinct, valid, lower-cased addresses (see guestsOfRequest). */
  guests: GuestToInvite[];
}

/**
 * Invites guests to a portal (D16), all in one transaction: for each address a User (created
 * without a password when new), a PortalGuest with the organization's default permissions (a
 * re-invitation keeps the row and its permissions and moves lastInvitedAt), a new Invitation
 * (token hashed, 14 days), the invitation email, `guest.invited` (with the guest's `user_id`) and
 * an audit row. Answers the guests' user ids in request order. 404 for a portal that is not the
 * organization's.
 */
export async function inviteGuests({ viewer, portalId, guests }: InviteGuestsInput): Promise<{ invitedCount: number; invited: InvitedGuest[] }> {
  requirePortal(viewer, portalId, "invite");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  const inviterId = userIdOf(viewer);
  const invited = await withChange(
    async (tx) => {
      const portal = await lockPortal(tx, { orgId, portalId });
      const org = await tx.organization.findUniqueOrThrow({ where: { id: orgId }, select: { name: true, defaultGuestPermissions: true } });
      const inviter = inviterId ? await tx.user.findUnique({ where: { id: inviterId }, select: { name: true, email: true } }) : null;
      const now = new Date();
      const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 24 * 3600 * 1000);
      const invited: InvitedGuest[] = [];

      for (const guest of guests) {
        const user = await tx.user.upsert({ where: { email: guest.email }, create: { email: guest.email, name: guest.name }, update: {} });
        if (!user.name && guest.name) await tx.user.update({ where: { id: user.id }, data: { name: guest.name } });
        const existing = await tx.portalGuest.findUnique({ where: { portalId_userId: { portalId, userId: user.id } }, select: { id: true } });
        const portalGuest = existing
          ? await tx.portalGuest.update({ where: { id: existing.id }, data: { lastInvitedAt: now }, select: { id: true } })
          : await tx.portalGuest.create({
              data: {
                orgId,
                portalId,
                userId: user.id,
                permissions: org.defaultGuestPermissions as Prisma.InputJsonValue,
                invitedById: inviterId,
                invitedAt: now,
                lastInvitedAt: now,
              },
              select: { id: true },
            });
        const { token, tokenHash } = newInvitationToken();
        await tx.invitation.create({ data: { orgId, portalId, email: guest.email, tokenHash, invitedById: inviterId, expiresAt } });
        const content = invitationEmail({
          acceptUrl: invitationUrl(token),
          portalName: portal.name,
          orgName: org.name,
          inviterName: inviter?.name ?? inviter?.email ?? null,
          guestName: guest.name ?? user.name,
          expiresInDays: INVITATION_DAYS,
        });
        await queueEmail(tx, { orgId, to: guest.email, template: "invitation", ...content });
        await recordEvent(tx, {
          orgId,
          portalId,
          type: "guest.invited",
          data: { guest_email: guest.email, guest_name: guest.name ?? user.name, invited_by: inviterId, user_id: user.id },
        });
        await recordAudit(tx, {
          orgId,
          portalId,
          actor,
          action: existing ? "guest.reinvited" : "guest.invited",
          targetType: "guest",
          targetId: portalGuest.id,
          metadata: { email: guest.email, user_id: user.id },
        });
        invited.push({ userId: user.id, email: guest.email });
      }
      return invited;
    },
    { timeout: 60_000 },
  );
  return { invitedCount: invited.length, invited };
}
