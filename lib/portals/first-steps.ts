import { accessPortal } from "@/lib/access/access-portal";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";

/** How far a portal has come on the three things a new client portal needs. */
export interface PortalFirstSteps {
  /** Guests invited, accepted or not. */
  guests: number;
  /** Tasks, open or done. */
  tasks: number;
  /** Files shared (folders not counted), in any folder. */
  files: number;
}

/**
 * The counts behind the first-steps panel of a portal's Files tab: a client invited, something
 * asked of them, a file shared. The firm's (members and admins who may update the portal); three
 * counts on indexed columns, whatever the portal's size.
 */
export async function getPortalFirstSteps({ viewer, portalId }: { viewer: Viewer; portalId: string }): Promise<PortalFirstSteps> {
  await accessPortal(viewer, portalId, "update");
  const orgId = viewer.orgId;
  const [guests, tasks, files] = await Promise.all([
    db.portalGuest.count({ where: { orgId, portalId } }),
    db.task.count({ where: { orgId, portalId, deletedAt: null } }),
    db.fileEntry.count({ where: { orgId, portalId, isFolder: false, status: "registered", deletedAt: null } }),
  ]);
  return { guests, tasks, files };
}
