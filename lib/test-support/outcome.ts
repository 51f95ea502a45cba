import { getUserViewer, type UserViewer } from "@/lib/access/viewer";
import { createTestOrg, createTestPortal, createTestUser } from "./fixtures";

// Small helpers shared by the domain integration tests.

/** "ok", or the AppError's `code: message`: one string to compare, so a wrong error shows whole. */
export const outcomeOf = async (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => "ok",
    (e: { code?: string; message: string }) => `${e.code}: ${e.message}`,
  );

/** An organization with a member (named `name`), the member's viewer and one portal. */
export async function createMemberContext(options: { name?: string } = {}) {
  const org = await createTestOrg();
  const member = await createTestUser({ orgId: org.id, role: "member", name: options.name });
  const viewer: UserViewer = await getUserViewer(member.id, org.id);
  const portal = await createTestPortal({ orgId: org.id });
  return { org, member, viewer, portal };
}

/** Another organization's admin, as a viewer: what a cross-tenant check runs as. */
export async function createForeignAdmin(): Promise<UserViewer> {
  const org = await createTestOrg();
  const admin = await createTestUser({ orgId: org.id, role: "admin" });
  return getUserViewer(admin.id, org.id);
}
