import type { Tx } from "@/lib/db";
import { invalidRequest } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

export interface ResolvedAssignee {
  userId: string;
  type: "guest" | "member";
  name: string | null;
  email: string;
}

/**
 * D17: guest ids must be guests of the portal, member ids members of the organization; the first
 * other id gives 400 naming it. Display names and emails are taken from the users.
 */
export async function resolveAssignees(
  tx: Tx,
  { orgId, portalId, guestIds = [], memberIds = [] }: { orgId: string; portalId: string; guestIds?: string[]; memberIds?: string[] },
): Promise<ResolvedAssignee[]> {
  const guests = [...new Set(guestIds)];
  const members = [...new Set(memberIds)];
  const both = guests.find((id) => members.includes(id));
  if (both) throw invalidRequest(`assigned_member_ids: ${both} is also given as a guest`);

  const guestRows = await tx.portalGuest.findMany({
    where: { orgId, portalId, userId: { in: guests.filter(isUuid) } },
    select: { userId: true, user: { select: { name: true, email: true } } },
  });
  const unknownGuest = guests.find((id) => !guestRows.some((g) => g.userId === id));
  if (unknownGuest !== undefined) throw invalidRequest(`assigned_guest_ids: ${unknownGuest} is not a guest of this portal`);

  const memberRows = await tx.membership.findMany({
    where: { orgId, userId: { in: members.filter(isUuid) } },
    select: { userId: true, user: { select: { name: true, email: true } } },
  });
  const unknownMember = members.find((id) => !memberRows.some((m) => m.userId === id));
  if (unknownMember !== undefined) throw invalidRequest(`assigned_member_ids: ${unknownMember} is not a member of this organization`);

  const byId = (rows: typeof guestRows, id: string) => rows.find((r) => r.userId === id)!.user;
  return [
    ...guests.map((id) => ({ userId: id, type: "guest" as const, ...byId(guestRows, id) })),
    ...members.map((id) => ({ userId: id, type: "member" as const, ...byId(memberRows, id) })),
  ];
}
