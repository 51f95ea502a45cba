import type { Tx } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/**
 * Locks an active portal of the organization for the rest of the transaction (so concurrent
 * changes of one portal see each other's result: a workflow change knows the real previous
 * state) and returns the fields a change compares against. 404 when there is no such portal.
 */
export async function lockPortal(tx: Tx, { orgId, portalId }: { orgId: string; portalId: string }) {
  if (!isUuid(portalId)) throw notFound("Portal");
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM "Portal" WHERE id = ${portalId}::uuid AND "orgId" = ${orgId}::uuid AND "deletedAt" IS NULL FOR UPDATE`;
  if (locked.length === 0) throw notFound("Portal");
  const portal = await tx.portal.findFirst({
    where: { id: portalId, orgId },
    select: { id: true, name: true, tags: true, archived: true, workflowState: { select: { id: true, name: true } } },
  });
  if (!portal) throw notFound("Portal");
  return portal;
}

export type LockedPortal = Awaited<ReturnType<typeof lockPortal>>;
