import { lockOrganization } from "@/lib/access/organizations";
import { requireOrg } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db, type Tx } from "@/lib/db";
import { conflict, notFound } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import { isUuid } from "@/lib/ids";
import { revokeGrantInTx } from "@/lib/oauth/grants";

// Organization settings: the admins see the members, change their roles and remove
// them. The organization keeps one admin at least (409). A removed member's OAuth grants for the
// organization are revoked with the membership, and their web session stops working at the next
// request: sessions are JWTs, but every page and action builds the viewer from the membership
// (findUserViewer), which no longer exists. Invitations are a later step.

export type MemberRole = "admin" | "member";

const LAST_ADMIN = "An organization needs at least one admin: make another member an admin first";

/** The members and admins of the organization, admins first, then by name and email. */
export async function listMembers({ viewer }: { viewer: Viewer }) {
  requireOrg(viewer, "manageMembers");
  const rows = await db.membership.findMany({
    where: { orgId: viewer.orgId },
    orderBy: [{ role: "asc" }, { user: { name: "asc" } }, { user: { email: "asc" } }, { id: "asc" }],
    select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
  });
  return rows.map((m) => ({ userId: m.user.id, email: m.user.email, name: m.user.name, role: m.role, memberSince: m.createdAt }));
}

/** The target's membership, the organization locked first (the one-admin rule reads across rows). */
async function lockedMembership(tx: Tx, orgId: string, userId: string) {
  if (!isUuid(userId)) throw notFound("Member");
  await lockOrganization(tx, orgId);
  const membership = await tx.membership.findUnique({ where: { orgId_userId: { orgId, userId } }, select: { id: true, role: true } });
  if (!membership) throw notFound("Member");
  return membership;
}

/** 409 when the admin `userId` is the organization's only one. */
async function requireAnotherAdmin(tx: Tx, orgId: string, userId: string) {
  const others = await tx.membership.count({ where: { orgId, role: "admin", userId: { not: userId } } });
  if (others === 0) throw conflict(LAST_ADMIN);
}

/** Makes a member an admin or an admin a member; the same role changes nothing. */
export async function changeMemberRole({ viewer, userId, role }: { viewer: Viewer; userId: string; role: MemberRole }) {
  requireOrg(viewer, "manageMembers");
  const { orgId } = viewer;
  return withChange(async (tx) => {
    const membership = await lockedMembership(tx, orgId, userId);
    if (membership.role === role) return { userId, role, changed: false };
    if (membership.role === "admin") await requireAnotherAdmin(tx, orgId, userId);
    await tx.membership.update({ where: { id: membership.id }, data: { role } });
    await recordAudit(tx, {
      orgId,
      actor: actorOf(viewer),
      action: "member.role_changed",
      targetType: "user",
      targetId: userId,
      metadata: { from: membership.role, to: role },
    });
    return { userId, role, changed: true };
  });
}

/**
 * Takes a member out of the organization: the membership goes, and with it every OAuth grant the
 * user gave a client in this organization (tokens and refresh chains stop at once), and the
 * portals they were responsible for have nobody named. What they made (portals, files, tasks,
 * audit rows) stays.
 */
export async function removeMember({ viewer, userId }: { viewer: Viewer; userId: string }) {
  requireOrg(viewer, "manageMembers");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  return withChange(async (tx) => {
    const membership = await lockedMembership(tx, orgId, userId);
    if (membership.role === "admin") await requireAnotherAdmin(tx, orgId, userId);
    await tx.membership.delete({ where: { id: membership.id } });
    // Nobody outside the organization looks after its portals.
    await tx.portal.updateMany({ where: { orgId, responsibleMemberId: userId }, data: { responsibleMemberId: null } });
    const grants = await tx.oAuthGrant.findMany({ where: { orgId, userId, revokedAt: null }, select: { id: true } });
    for (const grant of grants) await revokeGrantInTx(tx, { grantId: grant.id, reason: "member_removed", actor });
    await recordAudit(tx, {
      orgId,
      actor,
      action: "member.removed",
      targetType: "user",
      targetId: userId,
      metadata: { role: membership.role, revokedGrants: grants.length },
    });
    return { userId };
  });
}
