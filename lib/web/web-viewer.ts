import { requireUser } from "@/lib/auth/session";
import { markGuestSeen } from "@/lib/guests/manage-guests";
import { findUserViewer, getUserViewer, type UserViewer } from "@/lib/access/viewer";

// The viewer of a page or server action: the session's user in the organization of the URL.
// Web code only (it reads the session); domain functions receive the viewer.

/** Signs in first (back to `returnTo`); null when the user has no role in the organization. */
export async function findWebViewer(orgId: string, returnTo = `/org/${orgId}`): Promise<UserViewer | null> {
  const user = await requireUser(returnTo);
  const viewer = await findUserViewer(user.id, orgId);
  if (viewer?.role === "guest") await markGuestSeen({ orgId, userId: user.id });
  return viewer;
}

/** As findWebViewer, with not_found (an AppError, for actions) when the user has no role there. */
export async function getWebViewer(orgId: string, returnTo = `/org/${orgId}`): Promise<UserViewer> {
  const user = await requireUser(returnTo);
  const viewer = await getUserViewer(user.id, orgId);
  if (viewer.role === "guest") await markGuestSeen({ orgId, userId: user.id });
  return viewer;
}
