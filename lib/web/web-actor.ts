import { requireOrgRole, type OrgRole } from "@/lib/auth/roles";
import { requireUser, type SessionUser } from "@/lib/auth/session";

/** Who runs a web action in an organization: the signed-in user, their role and the audit actor. */
export interface WebActor {
  orgId: string;
  user: SessionUser;
  role: OrgRole;
  actor: { type: "user"; userId: string };
}

/**
 * The one place where a web action learns its session and role (through lib/auth/roles). Signed
 * out: a redirect to sign-in that comes back to `returnTo`. No role in the organization: not_found;
 * a lower role than `minRole`: forbidden (both AppErrors, shown by the form). This is where the
 * access policy's Viewer is to be made once it exists.
 */
export async function webActor(orgId: string, minRole: OrgRole, returnTo: string): Promise<WebActor> {
  const user = await requireUser(returnTo);
  const role = await requireOrgRole(user.id, orgId, minRole);
  return { orgId, user, role, actor: { type: "user", userId: user.id } };
}
