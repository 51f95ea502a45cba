import { portalWhere, type PortalAction } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import type { PartnerLinkStatus, Prisma } from "@/lib/generated/prisma/client";

// A portal as every reader needs it (API responses, web pages): its row, workflow state,
// external ids, partner link and task counters. Counters are counted from the non-deleted tasks
// at read time, for a whole page at once (no query per portal).

const include = {
  workflowState: { select: { id: true, name: true } },
  externalIds: { select: { system: true, value: true }, orderBy: { systemKey: "asc" } },
  partnerLink: { select: { status: true, customerId: true, tenantId: true, displayName: true, verifiedAt: true, error: true } },
} satisfies Prisma.PortalInclude;

export interface PartnerLinkRecord {
  status: PartnerLinkStatus;
  customerId: string;
  tenantId: string | null;
  displayName: string | null;
  verifiedAt: Date | null;
  error: string | null;
}

export interface PortalRecord {
  id: string;
  orgId: string;
  name: string;
  tags: string[];
  archived: boolean;
  isTemplate: boolean;
  workflowState: { id: string; name: string } | null;
  externalSystemIds: Record<string, string>;
  /** null when it does not apply: the partner integration is not connected or the portal never had a partner id (D9). */
  partnerLink: PartnerLinkRecord | null;
  openTaskCount: number;
  doneTaskCount: number;
  lastActivityAt: Date | null;
  createdAt: Date;
  createdById: string | null;
}

/** Active portals matching `where` on which the viewer may do `action`, as records, in the given order. */
export async function loadPortalRecords({
  viewer,
  action = "view",
  where = {},
  take,
}: {
  viewer: Viewer;
  action?: PortalAction;
  where?: Prisma.PortalWhereInput;
  take?: number;
}): Promise<PortalRecord[]> {
  const orgId = viewer.orgId;
  const rows = await db.portal.findMany({
    where: { AND: [where, portalWhere(viewer, action)] },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take,
    include,
  });
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [counts, connection] = await Promise.all([
    db.task.groupBy({ by: ["portalId", "status"], where: { orgId, portalId: { in: ids }, deletedAt: null }, _count: { _all: true } }),
    db.partnerConnection.findFirst({ where: { orgId, status: "connected" }, select: { id: true } }),
  ]);
  const byPortalStatus = new Map(counts.map((c) => [`${c.portalId}:${c.status}`, c._count._all]));
  const countOf = (portalId: string, status: "Open" | "Done") => byPortalStatus.get(`${portalId}:${status}`) ?? 0;

  return rows.map((r) => ({
    id: r.id,
    orgId: r.orgId,
    name: r.name,
    tags: r.tags,
    archived: r.archived,
    isTemplate: r.isTemplate,
    workflowState: r.workflowState,
    externalSystemIds: Object.fromEntries(r.externalIds.map((e) => [e.system, e.value])),
    partnerLink: connection ? r.partnerLink : null,
    openTaskCount: countOf(r.id, "Open"),
    doneTaskCount: countOf(r.id, "Done"),
    lastActivityAt: r.lastActivityAt,
    createdAt: r.createdAt,
    createdById: r.createdById,
  }));
}
