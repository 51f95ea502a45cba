import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { createTestOrg, createTestUser } from "@/lib/test-support/fixtures";
import { changeMemberRole, removeMember } from "./manage-members";
import {
  acceptMemberInvitationAsNewUser,
  acceptMemberInvitationAsUser,
  findMemberInvitation,
  inviteMember,
  listMemberInvitations,
  revokeMemberInvitation,
} from "./member-invitations";

/** The token from the captured invitation email (only the email has it). */
async function tokenSentTo(email: string) {
  const mail = await db.outboundEmail.findFirstOrThrow({ where: { to: email, template: "member-invitation" }, orderBy: { createdAt: "desc" } });
  return mail.text.match(/\/join\/([A-Za-z0-9_-]+)/)![1]!;
}

async function setup() {
  const org = await createTestOrg({ name: "Firm" });
  const admin = await createTestUser({ orgId: org.id, role: "admin" });
  return { org, admin, viewer: await getUserViewer(admin.id, org.id) };
}

describe("member invitations", () => {
  it("a new address: invitation email, account with a password, membership with the invited role, link used once", async () => {
    const { org, viewer } = await setup();
    await inviteMember({ viewer, email: " New.Colleague@Firm.TEST ", role: "admin" });
    expect((await listMemberInvitations({ viewer })).map((i) => i.email)).toEqual(["new.colleague@firm.test"]);
    const token = await tokenSentTo("new.colleague@firm.test");
    expect(await findMemberInvitation(token)).toMatchObject({ status: "valid", orgName: "Firm", role: "admin", hasPassword: false });
    await expect(acceptMemberInvitationAsNewUser({ token, name: "Nora", password: "short" })).rejects.toMatchObject({ field: "password" });
    const joined = await acceptMemberInvitationAsNewUser({ token, name: "Nora", password: "a-long-password" });
    const membership = await db.membership.findUniqueOrThrow({ where: { orgId_userId: { orgId: org.id, userId: joined.userId } } });
    expect(membership.role).toBe("admin");
    expect(await findMemberInvitation(token)).toEqual({ status: "accepted" });
    await expect(acceptMemberInvitationAsNewUser({ token, name: "Nora", password: "a-long-password" })).rejects.toMatchObject({ code: "conflict" });
    expect(await listMemberInvitations({ viewer })).toEqual([]);
  });

  it("an existing user accepts signed in; someone else cannot; members already in are refused at invitation", async () => {
    const { viewer } = await setup();
    const existing = await createTestUser({ name: "Existing" });
    const other = await createTestUser();
    await inviteMember({ viewer, email: existing.email, role: "member" });
    const token = await tokenSentTo(existing.email);
    await expect(acceptMemberInvitationAsUser({ token, userId: other.id })).rejects.toMatchObject({ code: "forbidden" });
    await acceptMemberInvitationAsUser({ token, userId: existing.id });
    await expect(inviteMember({ viewer, email: existing.email, role: "admin" })).rejects.toMatchObject({ code: "conflict", field: "email" });
    await expect(inviteMember({ viewer, email: "not an email", role: "member" })).rejects.toMatchObject({ name: "ZodError" });
  });

  it("a withdrawn invitation's link stops working; an expired one too", async () => {
    const { viewer } = await setup();
    const { id } = await inviteMember({ viewer, email: "late@firm.test", role: "member" });
    const token = await tokenSentTo("late@firm.test");
    await revokeMemberInvitation({ viewer, invitationId: id });
    expect(await findMemberInvitation(token)).toEqual({ status: "unknown" });
    await inviteMember({ viewer, email: "later@firm.test", role: "member" });
    const token2 = await tokenSentTo("later@firm.test");
    await db.memberInvitation.updateMany({ where: { email: "later@firm.test" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await findMemberInvitation(token2)).toEqual({ status: "expired" });
    await expect(acceptMemberInvitationAsNewUser({ token: token2, name: "L", password: "a-long-password" })).rejects.toMatchObject({ code: "invalid_request" });
  });

  it("the last admin can be neither demoted nor removed", async () => {
    const { admin, viewer } = await setup();
    await expect(changeMemberRole({ viewer, userId: admin.id, role: "member" })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("at least one admin"),
    });
    await expect(removeMember({ viewer, userId: admin.id })).rejects.toMatchObject({ code: "conflict" });
  });
});
