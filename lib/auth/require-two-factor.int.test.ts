import { describe, expect, it, vi } from "vitest";
import { generate } from "otplib";
import { getUserViewer } from "@/lib/access/viewer";
import { hashPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { confirmTotpEnrolment, startTotpEnrolment } from "./two-factor";
import { mustEnrolTwoFactor, setRequireTwoFactor } from "./require-two-factor";

// An organization requiring two-factor of its members: who must enrol, who may set the rule, and
// the web actions of such a member refused until they enrol.

const session = vi.hoisted(() => ({ user: { id: "", email: "member@example.com", name: "Member" } }));
vi.mock("@/lib/auth/session", () => ({ currentUser: async () => session.user, requireUser: async () => session.user }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

async function enrol(userId: string, email: string) {
  const { secret } = await startTotpEnrolment({ userId, email });
  await confirmTotpEnrolment({ userId, code: await generate({ secret }) });
}

describe("an organization that requires two-factor", () => {
  it("is set only by an admin who has two-factor; then members and admins without it must enrol, guests not; audited", async () => {
    const org = await createTestOrg();
    const admin = await createTestUser({ orgId: org.id, role: "admin", passwordHash: await hashPassword("admin-password") });
    const member = await createTestUser({ orgId: org.id, role: "member" });
    const portal = await createTestPortal({ orgId: org.id });
    const guest = await createTestGuest({ orgId: org.id, portalId: portal.id });
    const adminViewer = await getUserViewer(admin.id, org.id);

    await expect(setRequireTwoFactor({ viewer: await getUserViewer(member.id, org.id), required: true })).rejects.toMatchObject({ code: "forbidden" });
    await expect(setRequireTwoFactor({ viewer: adminViewer, required: true })).rejects.toMatchObject({ code: "invalid_request" });
    expect(await mustEnrolTwoFactor({ orgId: org.id, userId: member.id, role: "member" })).toBe(false);

    await enrol(admin.id, admin.email);
    await setRequireTwoFactor({ viewer: adminViewer, required: true });
    expect(await mustEnrolTwoFactor({ orgId: org.id, userId: member.id, role: "member" })).toBe(true);
    expect(await mustEnrolTwoFactor({ orgId: org.id, userId: admin.id, role: "admin" })).toBe(false);
    expect(await mustEnrolTwoFactor({ orgId: org.id, userId: guest.id, role: "guest" })).toBe(false);
    await enrol(member.id, member.email);
    expect(await mustEnrolTwoFactor({ orgId: org.id, userId: member.id, role: "member" })).toBe(false);

    const audit = await db.auditLog.findMany({ where: { orgId: org.id, targetType: "organization" } });
    expect(audit.map((a) => [a.action, a.actorUserId])).toEqual([["organization.two_factor_required", admin.id]]);
  });

  it("refuses the web actions of a member without two-factor, and allows them once enrolled", async () => {
    const { createFolderAction } = await import("@/app/(web)/org/[orgId]/vault/[portalId]/file-actions");
    const org = await createTestOrg();
    const member = await createTestUser({ orgId: org.id, role: "member", passwordHash: await hashPassword("member-password") });
    const portal = await createTestPortal({ orgId: org.id });
    await db.organization.update({ where: { id: org.id }, data: { requireTwoFactor: true } });
    session.user = { id: member.id, email: member.email, name: "Member" };
    const form = new FormData();
    form.set("portalId", portal.id);
    form.set("name", "Statements");
    const refused = await createFolderAction(org.id, {}, form);
    expect(refused.error).toMatch(/requires two-factor authentication/);
    expect(await db.fileEntry.count({ where: { portalId: portal.id } })).toBe(0);
    await enrol(member.id, member.email);
    expect(await createFolderAction(org.id, {}, form)).toMatchObject({ done: { name: "Statements" } });
  });
});
