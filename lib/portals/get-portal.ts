import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { loadPortalRecords, type PortalRecord } from "./portal-record";

/** One active portal of the organization, or null (a malformed or foreign id is simply not found). */
export async function findPortal({ orgId, portalId }: { orgId: string; portalId: string }): Promise<PortalRecord | null> {
  if (!isUuid(portalId)) return null;
  const [portal] = await loadPortalRecords({ orgId, where: { id: portalId } });
  return portal ?? null;
}

/** One active portal of the organization; 404 not_found otherwise (D4). */
export async function getPortal(input: { orgId: string; portalId: string }): Promise<PortalRecord> {
  const portal = await findPortal(input);
  if (!portal) throw notFound("Portal");
  return portal;
}
