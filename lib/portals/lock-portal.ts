import type { Tx } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { rows, sql } from "@/lib/sql";

// The lock order of every change (docs/database.md): the organization's row when the change
// checks an organization-wide rule, then the portal's row, then the portal's own rows (its partner
// link, external ids, guests, file entries, tasks), then inserts (audit rows, events). A change
// that writes any row of a portal takes the portal's lock first, so two changes of one portal run
// one after the other instead of each holding a row the other waits for.

/**
 * Locks the portal's row for the rest of the transaction; false when the organization has no such
 * active portal. `FOR NO KEY UPDATE`: it excludes other changes of the portal but not the inserts of
 * rows that reference it (their foreign key check takes `FOR KEY SHARE`), so an audit row or a
 * task being added elsewhere never waits on it. `forDelete`: `FOR UPDATE`, which the removal of
 * the row needs.
 */
export async function lockPortalRow(tx: Tx, { orgId, portalId, forDelete = false }: { orgId: string; portalId: string; forDelete?: boolean }) {
  if (!isUuid(portalId)) return false;
  const portal = sql.selectFrom("Portal").select("id").where("id", "=", portalId).where("orgId", "=", orgId).where("deletedAt", "is", null);
  const locked = await rows(forDelete ? portal.forUpdate() : portal.forNoKeyUpdate(), { tx });
  return locked.length > 0;
}

/**
 * Locks an active portal of the organization for the rest of the transaction (so concurrent
 * changes of one portal see each other's result: a workflow change knows the real previous
 * state) and returns the fields a change compares against. 404 when there is no such portal.
 */
export async function lockPortal(tx: Tx, { orgId, portalId, forDelete }: { orgId: string; portalId: string; forDelete?: boolean }) {
  if (!(await lockPortalRow(tx, { orgId, portalId, forDelete }))) throw notFound("Portal");
  const portal = await tx.portal.findFirst({
    where: { id: portalId, orgId },
    select: { id: true, name: true, tags: true, archived: true, workflowState: { select: { id: true, name: true } } },
  });
  if (!portal) throw notFound("Portal");
  return portal;
}

export type LockedPortal = Awaited<ReturnType<typeof lockPortal>>;
