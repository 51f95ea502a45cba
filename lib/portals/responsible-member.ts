import { lockOrganization } from "@/lib/access/organizations";
import { requirePortal } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db, runInTransaction } from "@/lib/db";
import { invalidField, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { lockPortal } from "./lock-portal";

// The member who looks after a portal (the portal list's "Responsible" column, set in the
// portal's Settings tab). Web only: the API's portal resource does not carry it.

interface ResponsibleOption {
  userId: string;
  name: string | null;
  email: string;
}

/**
 * The portal's responsible member (null: nobody) and who may be: the organization's members and
 * admins, by name then email. 404 for a portal the viewer may not change.
 */
export async function getResponsibleChoice({
  viewer,
  portalId,
}: {
  viewer: Viewer;
  portalId: string;
}): Promise<{ current: string | null; options: ResponsibleOption[] }> {
  requirePortal(viewer, portalId, "update");
  const [portal, members] = await Promise.all([
    isUuid(portalId) ? db.portal.findFirst({ where: { id: portalId, orgId: viewer.orgId, deletedAt: null }, select: { responsibleMemberId: true } }) : null,
    db.membership.findMany({
      where: { orgId: viewer.orgId, role: { in: ["admin", "member"] } },
      select: { user: { select: { id: true, name: true, email: true } } },
      orderBy: [{ user: { name: "asc" } }, { user: { email: "asc" } }],
    }),
  ]);
  if (!portal) throw notFound("Portal");
  return { current: portal.responsibleMemberId, options: members.map(({ user }) => ({ userId: user.id, name: user.name, email: user.email })) };
}

/**
 * Names the portal's responsible member (`memberId` null: nobody). The member must belong to the
 * organization: the organization's row is locked first, as removing a member locks it, so a member
 * removed meanwhile is either refused here or cleared from the portal by the removal. One audit
 * row when it really changes.
 */
export async function setResponsibleMember({ viewer, portalId, memberId }: { viewer: Viewer; portalId: string; memberId: string | null }) {
  requirePortal(viewer, portalId, "update");
  const { orgId } = viewer;
  const notAMember = () => invalidField("responsibleMemberId", "Choose a member of this organization, or nobody");
  if (memberId !== null && !isUuid(memberId)) throw notAMember();
  return runInTransaction(async (tx) => {
    await lockOrganization(tx, orgId);
    const portal = await lockPortal(tx, { orgId, portalId });
    const current = await tx.portal.findFirst({
      where: { id: portalId, orgId },
      select: { responsibleMember: { select: { id: true, name: true, email: true } } },
    });
    const member =
      memberId === null
        ? null
        : await tx.membership.findFirst({
            where: { orgId, userId: memberId, role: { in: ["admin", "member"] } },
            select: { user: { select: { id: true, name: true, email: true } } },
          });
    if (memberId !== null && !member) throw notAMember();
    const previous = current?.responsibleMember ?? null;
    const next = member?.user ?? null;
    if ((previous?.id ?? null) === (next?.id ?? null)) return { changed: false, responsible: next };
    await tx.portal.update({ where: { id: portal.id, orgId }, data: { responsibleMemberId: next?.id ?? null } });
    await recordAudit(tx, {
      orgId,
      portalId,
      actor: actorOf(viewer),
      action: "portal.responsible_changed",
      targetType: "portal",
      targetId: portalId,
      metadata: { from: previous ? (previous.name ?? previous.email) : null, to: next ? (next.name ?? next.email) : null },
    });
    return { changed: true, responsible: next };
  });
}
