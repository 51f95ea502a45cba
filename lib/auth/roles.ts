import { db } from "@/lib/db";
import { AppError, notFound } from "@/lib/errors";
import type { MemberRole } from "@/lib/generated/prisma/client";

// The one place that decides who may do what in an organization and a portal.

export type OrgRole = MemberRole | "guest";

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

/** The user's role in an organization, or null when they have none. */
export async function roleInOrganization(userId: string, orgId: string): Promise<OrgRole | null> {
  const membership = await db.membership.findUnique({ where: { orgId_userId: { orgId, userId } }, select: { role: true } });
  if (membership) return membership.role;
  const guest = await db.portalGuest.findFirst({ where: { orgId, userId, portal: { deletedAt: null } }, select: { id: true } });
  return guest ? "guest" : null;
}

const RANK: Record<OrgRole, number> = { guest: 0, member: 1, admin: 2 };

/**
 * Requires at least `minimum` in the organization. A user with no role at all gets not_found, so
 * that an organization's existence does not leak; a lower role gets forbidden.
 */
export async function requireOrgRole(userId: string, orgId: string, minimum: OrgRole): Promise<OrgRole> {
  const role = await roleInOrganization(userId, orgId);
  if (!role) throw notFound("Organization");
  if (RANK[role] < RANK[minimum]) throw new AppError("forbidden", `This needs the ${minimum} role`);
  return role;
}

/** Members see every portal of their organization; guests only the portals they were invited to. */
export async function canAccessPortal(userId: string, orgId: string, portalId: string): Promise<boolean> {
  const role = await roleInOrganization(userId, orgId);
  if (role === "admin" || role === "member") return true;
  if (role !== "guest") return false;
  return (await db.portalGuest.count({ where: { orgId, portalId, userId } })) > 0;
}
