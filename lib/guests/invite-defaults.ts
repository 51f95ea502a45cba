import { readGuestPermissions, type GuestPermissions } from "@/lib/access/permissions";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { accessPortal } from "@/lib/access/access-portal";

/** The permissions a new guest of the portal gets (the organization's defaults, D16), for the invite form. */
export async function getInviteDefaults({ viewer, portalId }: { viewer: Viewer; portalId: string }): Promise<GuestPermissions> {
  await accessPortal(viewer, portalId, "invite");
  const org = await db.organization.findUniqueOrThrow({ where: { id: viewer.orgId }, select: { defaultGuestPermissions: true } });
  return readGuestPermissions(org.defaultGuestPermissions);
}
