import { requireRole } from "@/lib/access/policy";
import type { Role, UserViewer } from "@/lib/access/viewer";
import { getWebViewer } from "@/lib/access/web-viewer";

/** Who runs a web action in an organization: its viewer (lib/access). */
export interface WebActor {
  orgId: string;
  viewer: UserViewer;
}

/**
 * The one place where a web action learns its session and viewer (`getWebViewer`). Signed out: a
 * redirect to sign-in that comes back to `returnTo`. No role in the organization: not_found; a
 * lower role than `minRole`: forbidden (both AppErrors, shown by the form). The domain functions
 * the action calls check the policy again with the viewer.
 */
export async function webActor(orgId: string, minRole: Role, returnTo: string): Promise<WebActor> {
  const viewer = await getWebViewer(orgId, returnTo);
  requireRole(viewer, minRole);
  return { orgId, viewer };
}
