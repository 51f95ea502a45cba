import { describe, expect, it } from "vitest";
import { findUserViewer, getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { issueAccessToken, verifyAccessToken } from "@/lib/oauth/access-token";
import { createApiContext, createTestClient, createTestOrg, createTestUser } from "@/lib/test-support/fixtures";
import { outcomeOf } from "@/lib/test-support/outcome";
import { changeMemberRole, listMembers, removeMember } from "./manage-members";

// Members in the organization settings: roles change, members leave (their OAuth
// grants for the organization and their web access end), and the organization keeps an admin.

async function orgWith(roles: ("admin" | "member")[]) {
  const org = await createTestOrg();
  const users = [];
  for (const [i, role] of roles.entries()) users.push(await createTestUser({ orgId: org.id, role, name: `User ${i}` }));
  return { org, users, viewer: await getUserViewer(users[0]!.id, org.id) };
}

/** What a member change could touch. */
async function snapshot(orgId: string) {
  const memberships = await db.membership.findMany({ where: { orgId }, orderBy: { id: "asc" } });
  const grants = await db.oAuthGrant.findMany({ where: { orgId }, orderBy: { id: "asc" } });
  const audit = await db.auditLog.count({ where: { orgId } });
  return { memberships, grants, audit };
}

describe("listMembers", () => {
  it("lists the members with their roles, admins first, not guests nor other organizations", async () => {
    const { org, users, viewer } = await orgWith(["member", "admin", "member"]);
    await orgWith(["admin"]);
    const adminViewer = await getUserViewer(users[1]!.id, org.id);
    const list = await listMembers({ viewer: adminViewer });
    expect(list.map((m) => [m.name, m.role])).toEqual([
      ["User 1", "admin"],
      ["User 0", "member"],
      ["User 2", "member"],
    ]);
    expect(list[0]).toMatchObject({ userId: users[1]!.id, email: users[1]!.email });
    expect(await outcomeOf(listMembers({ viewer }))).toBe("forbidden: This needs the admin role");
  });
});

describe("changeMemberRole", () => {
  it("promotes and demotes with audit rows; the same role changes nothing", async () => {
    const { org, users, viewer } = await orgWith(["admin", "member"]);
    const target = users[1]!.id;
    expect(await changeMemberRole({ viewer, userId: target, role: "admin" })).toEqual({ userId: target, role: "admin", changed: true });
    expect(await changeMemberRole({ viewer, userId: target, role: "admin" })).toEqual({ userId: target, role: "admin", changed: false });
    // Now two admins: the first may step down.
    await changeMemberRole({ viewer, userId: users[0]!.id, role: "member" });
    expect((await findUserViewer(users[0]!.id, org.id))?.role).toBe("member");
    const audit = await db.auditLog.findMany({
      where: { orgId: org.id },
      orderBy: { createdAt: "asc" },
      select: { action: true, targetId: true, metadata: true },
    });
    expect(audit).toEqual([
      { action: "member.role_changed", targetId: target, metadata: { from: "member", to: "admin" } },
      { action: "member.role_changed", targetId: users[0]!.id, metadata: { from: "admin", to: "member" } },
    ]);
  });

  it("refuses to demote the last admin (409 naming the rule) and changes nothing", async () => {
    const { org, users, viewer } = await orgWith(["admin", "member"]);
    const before = await snapshot(org.id);
    expect(await outcomeOf(changeMemberRole({ viewer, userId: users[0]!.id, role: "member" }))).toBe(
      "conflict: An organization needs at least one admin: make another member an admin first",
    );
    expect(await snapshot(org.id)).toEqual(before);
  });

  it("lets only one of two admins demoting each other at once succeed", async () => {
    const { org, users } = await orgWith(["admin", "admin"]);
    const [a, b] = [await getUserViewer(users[0]!.id, org.id), await getUserViewer(users[1]!.id, org.id)];
    const results = await Promise.allSettled([
      changeMemberRole({ viewer: a, userId: users[1]!.id, role: "member" }),
      changeMemberRole({ viewer: b, userId: users[0]!.id, role: "member" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await db.membership.count({ where: { orgId: org.id, role: "admin" } })).toBe(1);
  });

  it("does not know a user outside the organization", async () => {
    const { org, viewer } = await orgWith(["admin"]);
    const stranger = await orgWith(["member"]);
    const before = await snapshot(org.id);
    expect(await outcomeOf(changeMemberRole({ viewer, userId: stranger.users[0]!.id, role: "admin" }))).toBe("not_found: Member not found");
    expect(await outcomeOf(removeMember({ viewer, userId: "not-a-uuid" }))).toBe("not_found: Member not found");
    expect(await snapshot(org.id)).toEqual(before);
    expect((await findUserViewer(stranger.users[0]!.id, stranger.org.id))?.role).toBe("member");
  });
});

describe("removeMember", () => {
  it("ends the member's OAuth grants in the organization and their access, keeping other grants", async () => {
    // The API context's admin holds a grant and a live access token in this organization.
    const { org, user, grant, token, client } = await createApiContext();
    const otherAdmin = await createTestUser({ orgId: org.id, role: "admin" });
    const viewer = await getUserViewer(otherAdmin.id, org.id);
    const othersGrant = await db.oAuthGrant.create({ data: { orgId: org.id, clientId: client.id, userId: otherAdmin.id, scopes: ["portal:read"] } });
    // The same user in another organization keeps that membership and grant.
    const elsewhere = await createTestOrg();
    await db.membership.create({ data: { orgId: elsewhere.id, userId: user.id, role: "admin" } });
    const { client: elsewhereClient } = await createTestClient({ orgId: elsewhere.id, actorUserId: user.id });
    const elsewhereGrant = await db.oAuthGrant.create({
      data: { orgId: elsewhere.id, clientId: elsewhereClient.id, userId: user.id, scopes: ["portal:read"] },
    });
    const elsewhereToken = await issueAccessToken({
      grantId: elsewhereGrant.id,
      userId: user.id,
      orgId: elsewhere.id,
      clientId: elsewhereClient.clientId,
      scopes: ["portal:read"],
    });
    await db.oAuthRefreshToken.create({ data: { grantId: grant.id, tokenHash: `hash-${grant.id}`, expiresAt: new Date(Date.now() + 86_400_000) } });
    expect((await verifyAccessToken(token)).userId).toBe(user.id);

    expect(await removeMember({ viewer, userId: user.id })).toEqual({ userId: user.id });

    // The web: the next viewer lookup finds no role, so every page and action refuses (JWT sessions).
    expect(await findUserViewer(user.id, org.id)).toBeNull();
    // The API: the grant and its refresh chain are revoked, and its access token no longer verifies.
    expect(await db.oAuthGrant.findUniqueOrThrow({ where: { id: grant.id } })).toMatchObject({ revokedReason: "member_removed", revokedAt: expect.any(Date) });
    expect(await db.oAuthRefreshToken.count({ where: { grantId: grant.id, revokedAt: null } })).toBe(0);
    await expect(verifyAccessToken(token)).rejects.toThrow();
    expect((await db.oAuthGrant.findUniqueOrThrow({ where: { id: othersGrant.id } })).revokedAt).toBeNull();
    expect((await db.oAuthGrant.findUniqueOrThrow({ where: { id: elsewhereGrant.id } })).revokedAt).toBeNull();
    expect((await verifyAccessToken(elsewhereToken.token)).userId).toBe(user.id);
    expect((await findUserViewer(user.id, elsewhere.id))?.role).toBe("admin");

    const audit = await db.auditLog.findMany({
      where: { orgId: org.id, action: { in: ["member.removed", "oauth_grant.revoked"] } },
      select: { action: true, targetId: true, metadata: true },
    });
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: "oauth_grant.revoked", targetId: grant.id, metadata: { reason: "member_removed", oauthClientId: client.id } },
        { action: "member.removed", targetId: user.id, metadata: { role: "admin", revokedGrants: 1 } },
      ]),
    );
    expect(audit).toHaveLength(2);
  });

  it("refuses to remove the last admin, even themselves, and changes nothing", async () => {
    const { org, users, viewer } = await orgWith(["admin", "member"]);
    const before = await snapshot(org.id);
    expect(await outcomeOf(removeMember({ viewer, userId: users[0]!.id }))).toBe(
      "conflict: An organization needs at least one admin: make another member an admin first",
    );
    expect(await snapshot(org.id)).toEqual(before);
    // A member may go; then the admin is still the only one and still cannot.
    await removeMember({ viewer, userId: users[1]!.id });
    expect((await listMembers({ viewer })).map((m) => m.userId)).toEqual([users[0]!.id]);
  });
});
