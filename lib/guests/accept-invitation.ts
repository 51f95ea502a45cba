import { z } from "zod";
import { recordAudit } from "@/lib/audit/record-audit";
import { hashPassword, newPasswordSchema } from "@/lib/auth/password";
import { db, type Tx } from "@/lib/db";
import { AppError, forbidden, invalidRequest } from "@/lib/errors";
import { isStorableText } from "@/lib/text";
import { invitationTokenHash } from "./invitation-token";

export { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";

const newAccountSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Enter your name")
    .max(200, "The name is too long")
    .refine(isStorableText, "The name contains characters that cannot be stored (NUL or invalid Unicode)"),
  password: newPasswordSchema,
});

export interface AcceptedInvitation {
  orgId: string;
  portalId: string;
  email: string;
  userId: string;
}

const NO_LONGER_VALID = "This invitation has expired or was already used";

/**
 * Claims the invitation (a conditional update: of two concurrent accepts one wins), then marks
 * the guest accepted. Everything rolls back when a later check fails.
 */
async function claim(tx: Tx, token: string, expectedEmail: string | null): Promise<{ id: string; orgId: string; portalId: string; email: string }> {
  const tokenHash = invitationTokenHash(token);
  const invitation = await tx.invitation.findUnique({ where: { tokenHash }, include: { portal: { select: { deletedAt: true } } } });
  if (!invitation || invitation.portal.deletedAt) throw invalidRequest("This invitation link is not valid");
  if (expectedEmail !== null && invitation.email !== expectedEmail) throw forbidden(`This invitation is for ${invitation.email}`);
  const now = new Date();
  const claimed = await tx.invitation.updateMany({ where: { id: invitation.id, acceptedAt: null, expiresAt: { gt: now } }, data: { acceptedAt: now } });
  if (claimed.count !== 1) throw invalidRequest(NO_LONGER_VALID);
  return invitation;
}

async function markGuestAccepted(tx: Tx, invitation: { orgId: string; portalId: string }, userId: string): Promise<void> {
  const guest = await tx.portalGuest.findUnique({
    where: { portalId_userId: { portalId: invitation.portalId, userId } },
    select: { id: true, acceptedAt: true },
  });
  // The guest was removed from the portal after the invitation was sent.
  if (!guest) throw invalidRequest(NO_LONGER_VALID);
  if (!guest.acceptedAt) await tx.portalGuest.update({ where: { id: guest.id }, data: { acceptedAt: new Date() } });
  await recordAudit(tx, {
    orgId: invitation.orgId,
    portalId: invitation.portalId,
    actor: { type: "user", userId },
    action: "guest.accepted",
    targetType: "guest",
    targetId: guest.id,
  });
}

/**
 * A new guest (no password yet) accepts: sets a name and password, which creates the account,
 * and is then signed in by the caller. An address that already has a password must sign in.
 */
export async function acceptInvitationAsNewUser(input: { token: string; name: string; password: string }): Promise<AcceptedInvitation> {
  const parsed = newAccountSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = issue?.message ?? "Invalid input";
    throw new AppError("invalid_request", message, {}, { field: issue ? String(issue.path[0]) : undefined });
  }
  const passwordHash = await hashPassword(parsed.data.password);
  return db.$transaction(async (tx) => {
    const invitation = await claim(tx, input.token, null);
    const user = await tx.user.findUnique({ where: { email: invitation.email }, select: { id: true, passwordHash: true } });
    if (!user) throw invalidRequest(NO_LONGER_VALID);
    if (user.passwordHash) throw new AppError("conflict", "An account exists for this address: sign in to accept");
    await tx.user.update({ where: { id: user.id }, data: { name: parsed.data.name, passwordHash, emailVerified: new Date() } });
    await markGuestAccepted(tx, invitation, user.id);
    return { orgId: invitation.orgId, portalId: invitation.portalId, email: invitation.email, userId: user.id };
  });
}

/** A signed-in user accepts an invitation sent to their own address. */
export async function acceptInvitationAsUser(input: { token: string; userId: string }): Promise<AcceptedInvitation> {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: input.userId }, select: { id: true, email: true } });
    if (!user) throw forbidden("Sign in to accept");
    const invitation = await claim(tx, input.token, user.email.toLowerCase());
    await markGuestAccepted(tx, invitation, user.id);
    return { orgId: invitation.orgId, portalId: invitation.portalId, email: invitation.email, userId: user.id };
  });
}
