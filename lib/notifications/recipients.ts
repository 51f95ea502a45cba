import { db } from "@/lib/db";

export type NotificationKind = "fileUploaded" | "taskCompleted";

export interface Recipient {
  userId: string;
  email: string;
}

/**
 * Who is told about an action in a portal, per NotificationSetting (no row: everything on):
 * - members and admins of the organization, for uploads and completed tasks;
 * - the portal's guests who accepted their invitation, for files uploaded by the firm (a member
 *   or admin) only: a guest is not told about other guests' uploads, nor about task completions.
 * The person who acted is never told about their own action.
 */
export async function notificationRecipients({
  orgId,
  portalId,
  kind,
  actorUserId,
}: {
  orgId: string;
  portalId: string;
  kind: NotificationKind;
  actorUserId: string | null;
}): Promise<Recipient[]> {
  const portal = await db.portal.findFirst({ where: { id: portalId, orgId, deletedAt: null }, select: { id: true } });
  if (!portal) return [];
  const members = await db.membership.findMany({ where: { orgId }, select: { user: { select: { id: true, email: true } } } });
  const memberIds = new Set(members.map((m) => m.user.id));
  const candidates = members.map((m) => m.user);
  const actorIsStaff = actorUserId !== null && memberIds.has(actorUserId);
  if (kind === "fileUploaded" && actorIsStaff) {
    const guests = await db.portalGuest.findMany({
      where: { orgId, portalId, acceptedAt: { not: null } },
      select: { user: { select: { id: true, email: true } } },
    });
    for (const g of guests) if (!memberIds.has(g.user.id)) candidates.push(g.user);
  }
  const settings = await db.notificationSetting.findMany({ where: { orgId, userId: { in: candidates.map((c) => c.id) } } });
  const off = new Set(settings.filter((s) => !s[kind]).map((s) => s.userId));
  return candidates.filter((c) => c.id !== actorUserId && !off.has(c.id)).map((c) => ({ userId: c.id, email: c.email }));
}
