import { db, type Tx } from "@/lib/db";
import { rows, sql } from "@/lib/sql";
import type { Role } from "./viewer";

// Which organizations a user belongs to, for choosing one (the organization switcher, the home
// page). What a role may do there is decided by the policy (./policy.ts) with the viewer.

export interface OrgAccess {
  orgId: string;
  orgName: string;
  role: Role;
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

/**
 * Locks the organization's row for the rest of the transaction: changes whose rule spans several
 * rows of the organization (one admin at least, workflow state names unique in any case) take it
 * first, so two concurrent changes cannot both pass the check.
 */
export async function lockOrganization(tx: Tx, orgId: string): Promise<void> {
  await rows(sql.selectFrom("Organization").select("id").where("id", "=", orgId).forUpdate(), { tx });
}
