import { requirePortal, type PortalAction } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { loadPortalPage, portalRecordOf, type PortalRecord } from "./portal-record";

/** One active portal the viewer may see; 404 not_found otherwise (D4), forbidden per the policy. */
export async function getPortal({ viewer, portalId }: { viewer: Viewer; portalId: string }): Promise<PortalRecord> {
  requirePortal(viewer, portalId, "view");
  return loadPortal(viewer, portalId, "view");
}

/**
 * The record of a portal on which the viewer may do `action`, for a domain function that has
 * already checked `action` (an update returns the portal it changed without needing "view").
 */
export async function loadPortal(viewer: Viewer, portalId: string, action: PortalAction): Promise<PortalRecord> {
  const [row] = isUuid(portalId) ? await loadPortalPage({ viewer, action, portalId }) : [];
  if (!row) throw notFound("Portal");
  return portalRecordOf(row);
}
