import { z } from "zod";
import { requireOrg } from "@/lib/access/policy";
import { actorOf, userIdOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { hashPassword, newPasswordSchema } from "@/lib/auth/password";
import { db, type Tx } from "@/lib/db";
import { queueEmail } from "@/lib/email/send-email";
import { memberInvitationEmail } from "@/lib/email/templates/member-invitation";
import { env } from "@/lib/env";
import { AppError, conflict, forbidden, invalidRequest, notFound } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import { INVITATION_DAYS, invitationTokenHash, newInvitationToken } from "@/lib/guests/invitation-token";
import { isUuid } from "@/lib/ids";
import { notifyInvitationAccepted } from "@/lib/notifications/invitation-accepted";
import { isStorableText } from "@/lib/text";
import type { MemberRole } from "./manage-members";

// Inviting colleagues: an admin invites an address as member or admin; the email's link
// (/join/<token>, token hashed at rest, 14 days) lets a new user set a name and password, or an
// existing user sign in, and accept. Accepting creates the membership; a guest of the
// organization who is invited becomes a member (the membership outranks their guest rows).

export { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";
const NO_LONGER_VALID = "This invitation has expired or was already used";

export const InviteMemberSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address").max(320)),
  role: z.enum(["member", "admin"]),
});

const memberInvitationUrl = (token: string) => `${env().APP_URL}/join/${token}`;

/** Sends an invitation (a new link each time; earlier links stay valid until they expire). */
export async function inviteMember({ viewer, ...input }: { viewer: Viewer } & z.input<typeof InviteMemberSchema>) {
  requireOrg(viewer, "manageMembers");
  const { email, role } = InviteMemberSchema.parse(input);
  const { orgId } = viewer;
  const inviterId = userIdOf(viewer);
  return withChange(async (tx) => {
    const already = await tx.membership.findFirst({ where: { orgId, user: { email } }, select: { role: true } });
    if (already)
      throw new AppError("conflict", `${email} is already ${already.role === "admin" ? "an admin" : "a member"} of this organization`, {}, { field: "email" });
    const org = await tx.organization.findUniqueOrThrow({ where: { id: orgId }, select: { name: true } });
    const inviter = inviterId ? await tx.user.findUnique({ where: { id: inviterId }, select: { name: true, email: true } }) : null;
    const { token, tokenHash } = newInvitationToken();
    const invitation = await tx.memberInvitation.create({
      data: { orgId, email, role, tokenHash, invitedById: inviterId, expiresAt: new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000) },
      select: { id: true },
    });
    const content = memberInvitationEmail({
      acceptUrl: memberInvitationUrl(token),
      orgName: org.name,
      inviterName: inviter?.name ?? inviter?.email ?? null,
      role,
      expiresInDays: INVITATION_DAYS,
    });
    await queueEmail(tx, { orgId, to: email, template: "member-invitation", ...content });
    await recordAudit(tx, {
      orgId,
      actor: actorOf(viewer),
      action: "member.invited",
      targetType: "member_invitation",
      targetId: invitation.id,
      metadata: { email, role },
    });
    return { id: invitation.id, email, role };
  });
}

/** Invitations not yet accepted nor expired, newest first. */
export async function listMemberInvitations({ viewer }: { viewer: Viewer }) {
  requireOrg(viewer, "manageMembers");
  return db.memberInvitation.findMany({
    where: { orgId: viewer.orgId, acceptedAt: null, expiresAt: { gt: new Date() } },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    select: { id: true, email: true, role: true, createdAt: true, expiresAt: true },
  });
}

/** Withdraws a pending invitation: its link stops working. */
export async function revokeMemberInvitation({ viewer, invitationId }: { viewer: Viewer; invitationId: string }) {
  requireOrg(viewer, "manageMembers");
  if (!isUuid(invitationId)) throw notFound("Invitation");
  await withChange(async (tx) => {
    const gone = await tx.memberInvitation.deleteMany({ where: { id: invitationId, orgId: viewer.orgId, acceptedAt: null } });
    if (gone.count === 0) throw notFound("Invitation");
    await recordAudit(tx, {
      orgId: viewer.orgId,
      actor: actorOf(viewer),
      action: "member.invitation_revoked",
      targetType: "member_invitation",
      targetId: invitationId,
    });
  });
}

export type MemberInvitationView =
  | { status: "unknown" | "expired" | "accepted" }
  | { status: "valid"; orgId: string; orgName: string; email: string; role: MemberRole; hasPassword: boolean; userName: string | null };

/** What a /join link stands for, for the accept page. */
export async function findMemberInvitation(token: string): Promise<MemberInvitationView> {
  if (!token || token.length > 200) return { status: "unknown" };
  const inv = await db.memberInvitation.findUnique({ where: { tokenHash: invitationTokenHash(token) }, include: { org: { select: { name: true } } } });
  if (!inv) return { status: "unknown" };
  if (inv.acceptedAt) return { status: "accepted" };
  if (inv.expiresAt <= new Date()) return { status: "expired" };
  const user = await db.user.findUnique({ where: { email: inv.email }, select: { passwordHash: true, name: true } });
  return {
    status: "valid",
    orgId: inv.orgId,
    orgName: inv.org.name,
    email: inv.email,
    role: inv.role,
    hasPassword: Boolean(user?.passwordHash),
    userName: user?.name ?? null,
  };
}

/** Claims the invitation once (of two concurrent accepts one wins) and makes the membership. */
async function join(tx: Tx, token: string, userId: string, email: string) {
  const inv = await tx.memberInvitation.findUnique({ where: { tokenHash: invitationTokenHash(token) } });
  if (!inv) throw invalidRequest("This invitation link is not valid");
  if (inv.email !== email.toLowerCase()) throw forbidden(`This invitation is for ${inv.email}`);
  const now = new Date();
  const claimed = await tx.memberInvitation.updateMany({ where: { id: inv.id, acceptedAt: null, expiresAt: { gt: now } }, data: { acceptedAt: now } });
  if (claimed.count !== 1) throw invalidRequest(NO_LONGER_VALID);
  const existing = await tx.membership.findUnique({ where: { orgId_userId: { orgId: inv.orgId, userId } } });
  if (existing) throw conflict("You are already a member of this organization");
  await tx.membership.create({ data: { orgId: inv.orgId, userId, role: inv.role } });
  await recordAudit(tx, {
    orgId: inv.orgId,
    actor: { type: "user", userId },
    action: "member.joined",
    targetType: "user",
    targetId: userId,
    metadata: { role: inv.role },
  });
  await notifyInvitationAccepted(tx, { orgId: inv.orgId, role: inv.role, inviterId: inv.invitedById, acceptedById: userId });
  return { orgId: inv.orgId, email: inv.email, userId };
}

const newAccountSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Enter your name")
    .max(200, "The name is too long")
    .refine(isStorableText, "The name contains characters that cannot be stored"),
  password: newPasswordSchema,
});

/** Someone without a password accepts: the account is created (or completed) with a name and password. */
export async function acceptMemberInvitationAsNewUser(input: { token: string; name: string; password: string }) {
  const parsed = newAccountSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("invalid_request", issue?.message ?? "Invalid input", {}, { field: issue ? String(issue.path[0]) : undefined });
  }
  const passwordHash = await hashPassword(parsed.data.password);
  return withChange(async (tx) => {
    const inv = await tx.memberInvitation.findUnique({ where: { tokenHash: invitationTokenHash(input.token) }, select: { email: true } });
    if (!inv) throw invalidRequest("This invitation link is not valid");
    const existing = await tx.user.findUnique({ where: { email: inv.email }, select: { id: true, passwordHash: true } });
    if (existing?.passwordHash) throw new AppError("conflict", "An account exists for this address: sign in to accept");
    const user = existing
      ? await tx.user.update({ where: { id: existing.id }, data: { name: parsed.data.name, passwordHash, emailVerified: new Date() } })
      : await tx.user.create({ data: { email: inv.email, name: parsed.data.name, passwordHash, emailVerified: new Date() } });
    return join(tx, input.token, user.id, user.email);
  });
}

/** A signed-in user accepts an invitation sent to their own address. */
export async function acceptMemberInvitationAsUser(input: { token: string; userId: string }) {
  return withChange(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: input.userId }, select: { id: true, email: true } });
    if (!user) throw forbidden("Sign in to accept");
    return join(tx, input.token, user.id, user.email);
  });
}
