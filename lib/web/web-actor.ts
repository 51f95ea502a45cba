import { requireRole } from "@/lib/access/policy";
import { notFound } from "@/lib/errors";
import type { Role, UserViewer } from "@/lib/access/viewer";
import { getWebViewer } from "@/lib/web/web-viewer";
import { mustEnrolTwoFactor, twoFactorRequired } from "@/lib/auth/require-two-factor";

/** Who runs a web action in an organization: its viewer (lib/access). */
export interface WebActor {
  orgId: string;
  viewer: UserViewer;
}

/**
 * The one place where a web action learns its session and viewer (`getWebViewer`). Signed out: a
 * redirect to sign-in that comes back to `returnTo`. No role in the organization: not_found; a
 * lower role than `minRole`: forbidden (both AppErrors, shown by the form), except for a guest,
 * to whom the organization's own pages do not exist (they answer 404): not_found, as those pages.
 * A member of an organization that requires two-factor, without it: forbidden.
 * The domain functions the action calls check the policy again with the viewer.
 */
export async function webActor(orgId: string, minRole: Role, returnTo: string): Promise<WebActor> {
  const viewer = await getWebViewer(orgId, returnTo);
  if (viewer.role === "guest" && minRole !== "guest") throw notFound("Page");
  requireRole(viewer, minRole);
  if (await mustEnrolTwoFactor({ orgId, userId: viewer.userId, role: viewer.role })) throw twoFactorRequired();
  return { orgId, viewer };
}
