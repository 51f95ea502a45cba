import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { findWebViewer } from "@/lib/web/web-viewer";
import { orNotFound } from "@/lib/web/or-not-found";
import { getPortal } from "@/lib/portals/get-portal";
import { guestPortalPath, portalPath } from "@/lib/links";

/**
 * The member viewer and the portal, once per request for the layout, its title and every tab.
 * No role in the organization, or a portal the viewer may not see: not found. A guest of the
 * portal goes to the guest view of it (members' links are shared with guests).
 */
export const loadMemberPortal = cache(async (orgId: string, portalId: string) => {
  const viewer = await findWebViewer(orgId, portalPath(orgId, portalId));
  if (!viewer) notFound();
  if (viewer.role === "guest") redirect(guestPortalPath(orgId, portalId));
  const portal = await orNotFound(getPortal({ viewer, portalId }));
  return { viewer, portal };
});

/** A tab's title: `<tab> · <portal>`, or the portal's name alone for its main page (the root layout adds the product's name). */
export function tabMetadata(tab?: string) {
  return async ({ params }: { params: Promise<{ orgId: string; portalId: string }> }): Promise<Metadata> => {
    const { orgId, portalId } = await params;
    const { portal } = await loadMemberPortal(orgId, portalId);
    return { title: tab ? `${tab} · ${portal.name}` : portal.name };
  };
}
