import { requireRole } from "@/lib/access/policy";
import type { Role, UserViewer } from "@/lib/access/viewer";
import { findUserViewer } from "@/lib/access/viewer";
import { requireUser, type SessionUser } from "@/lib/auth/session";
import { notFound } from "@/lib/errors";

/** Who runs a web action in an organization: the signed-in user and their viewer (lib/access). */
export interface WebActor {
  orgId: string;
  user: SessionUser;
  viewer: UserViewer;
}

/**
 * The one place where a web action learns its session and viewer. Signed out: a redirect to
 * sign-in that comes back to `returnTo`. No role in the organization: not_found; a lower role than
 * `minRole`: forbidden (both AppErrors, shown by the form). The domain functions the action calls
 * check the policy again with the viewer.
 */
export async function webActor(orgId: string, minRole: Role, returnTo: string): Promise<WebActor> {
  const user = await requireUser(returnTo);
  const viewer = await findUserViewer(user.id, orgId);
  if (!viewer) throw notFound("Organization");
  requireRole(viewer, minRole);
  return { orgId, user, viewer };
}
