import { db } from "@/lib/db";
import { invitationTokenHash } from "./invitation-token";

export type InvitationView =
  | { status: "unknown" }
  | { status: "expired" | "accepted"; orgName: string; portalName: string; email: string }
  | {
      status: "valid";
      orgId: string;
      portalId: string;
      orgName: string;
      portalName: string;
      email: string;
      /** The invited address already has a password: the guest signs in instead of creating an account. */
      hasPassword: boolean;
      userName: string | null;
    };

/** What an invitation link stands for, for the accept page. A deleted portal's links are unknown. */
export async function findInvitation(token: string): Promise<InvitationView> {
  if (!token || token.length > 200) return { status: "unknown" };
  const invitation = await db.invitation.findUnique({
    where: { tokenHash: invitationTokenHash(token) },
    include: { portal: { select: { name: true, deletedAt: true } }, org: { select: { name: true } } },
  });
  if (!invitation || invitation.portal.deletedAt) return { status: "unknown" };
  const names = { orgName: invitation.org.name, portalName: invitation.portal.name, email: invitation.email };
  if (invitation.acceptedAt) return { status: "accepted", ...names };
  if (invitation.expiresAt <= new Date()) return { status: "expired", ...names };
  const user = await db.user.findUnique({ where: { email: invitation.email }, select: { passwordHash: true, name: true } });
  return {
    status: "valid",
    orgId: invitation.orgId,
    portalId: invitation.portalId,
    ...names,
    hasPassword: Boolean(user?.passwordHash),
    userName: user?.name ?? null,
  };
}
