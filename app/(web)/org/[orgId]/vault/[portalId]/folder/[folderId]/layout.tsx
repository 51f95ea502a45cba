import { notFound } from "next/navigation";
import { getFolderPath } from "@/lib/files/folder-view";
import { isUuid } from "@/lib/ids";
import { loadMemberPortal } from "../../load-portal";
import { orNotFound } from "@/lib/web/or-not-found";

type Params = { orgId: string; portalId: string; folderId: string };

/**
 * The folder is checked here, above the page's loading skeleton (loading.tsx wraps the page, not
 * this layout): a folder that is not an active folder of this portal (another portal's, another
 * organization's) answers 404 before anything streams. In the page, the skeleton would already
 * have gone out with a 200.
 */
export default async function FolderLayout({ children, params }: { children: React.ReactNode; params: Promise<Params> }) {
  const { orgId, portalId, folderId } = await params;
  if (folderId !== "main") {
    if (!isUuid(folderId)) notFound();
    const { viewer } = await loadMemberPortal(orgId, portalId);
    await orNotFound(getFolderPath({ viewer, portalId, folderId }));
  }
  return children;
}
