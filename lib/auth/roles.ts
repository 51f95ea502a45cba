import { requireRole } from "@/lib/access/policy";
import { findUserViewer, getUserViewer, type Role } from "@/lib/access/viewer";
import { db } from "@/lib/db";

// Which organizations a user belongs to, for choosing one. What a role may do is decided by the
// access policy (lib/access).

export type OrgRole = Role;

export interface OrgAccess {
  orgId: string;
  orgName: string;
  role: OrgRole;
}

/** Organizations a user belongs to, as member/admin or as a guest of at least one portal. */
export async function listUserOrganizations(userId: string): Promise<OrgAccess[]> {
  const [memberships, guestOf] = await Promise.all([
    db.membership.findMany({ where: { userId }, include: { org: { select: { name: true } } }, orderBy: { createdAt: "asc" } }),
    db.portalGuest.findMany({
      where: { userId, portal: { deletedAt: null } },
      distinct: ["orgId"],
      include: { org: { select: { name: true } } },
    }),
  ]);
  const result: OrgAccess[] = memberships.map((m) => ({ orgId: m.orgId, orgName: m.org.name, role: m.role }));
  for (const g of guestOf) {
    if (!result.some((r) => r.orgId === g.orgId)) result.push({ orgId: g.orgId, orgName: g.org.name, role: "guest" });
  }
  return result;
}

/** The user's role in an organization, or null when they have none (the viewer's role, lib/access). */
export async function roleInOrganization(userId: string, orgId: string): Promise<OrgRole | null> {
  return (await findUserViewer(userId, orgId))?.role ?? null;
}

/**
 * At least `minimum` in the organization: not_found without a role (D4), forbidden below it. Kept
 * for callers that only need the role; domain functions decide with the viewer (lib/access).
 */
export async function requireOrgRole(userId: string, orgId: string, minimum: OrgRole): Promise<OrgRole> {
  const viewer = await getUserViewer(userId, orgId);
  requireRole(viewer, minimum);
  return viewer.role;
}
