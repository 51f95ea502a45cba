import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

export interface ListPortalsInput {
  orgId: string;
  /** Guests see only the portals they were invited to. */
  guestUserId?: string;
  templatesOnly?: boolean;
  limit?: number;
}

/** Active (not permanently deleted) portals of an organization, archived ones included. */
export async function listPortals({ orgId, guestUserId, templatesOnly = false, limit = 1000 }: ListPortalsInput) {
  const where: Prisma.PortalWhereInput = {
    orgId,
    deletedAt: null,
    isTemplate: templatesOnly,
    ...(guestUserId ? { guests: { some: { userId: guestUserId } } } : {}),
  };
  return db.portal.findMany({
    where,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit,
    include: { workflowState: { select: { id: true, name: true } } },
  });
}
