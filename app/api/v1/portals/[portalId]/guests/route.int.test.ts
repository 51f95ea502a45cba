import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { callRoute } from "@/test/routes/call-route";
import { createApiContext, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { GET, POST } from "./route";

type Answer = {
  success?: boolean;
  invited_count?: number;
  message?: string;
  user_id?: string;
  guests?: { user_id: string; email: string }[];
  error?: string;
  error_description?: string;
};

function invite(token: string, portalId: string, body: unknown) {
  return callRoute<Answer>(POST, { path: `/api/v1/portals/${portalId}/guests`, token, body, params: { portalId } });
}

async function setup() {
  const ctx = await createApiContext({ scopes: ["guest:invite"] });
  const portal = await createTestPortal({ orgId: ctx.org.id, name: "Smith & Co 2025" });
  return { ctx, portal };
}

async function state(orgId: string) {
  const [guests, invitations, emails, events, audit] = await Promise.all([
    db.portalGuest.findMany({ where: { orgId }, include: { user: true }, orderBy: { invitedAt: "asc" } }),
    db.invitation.findMany({ where: { orgId }, orderBy: { createdAt: "asc" } }),
    db.outboundEmail.findMany({ where: { orgId }, orderBy: { createdAt: "asc" } }),
    db.event.findMany({ where: { orgId, type: "guest.invited" }, orderBy: { createdAt: "asc" } }),
    db.auditLog.findMany({ where: { orgId, targetType: "guest" }, orderBy: { createdAt: "asc" } }),
  ]);
  return { guests, invitations, emails, events, audit };
}

describe("POST /api/v1/portals/{portalId}/guests", () => {
  it("invites one guest: a user without password, default permissions, an invitation, an email, guest.invited and an audit row", async () => {
    const { ctx, portal } = await setup();
    await db.organization.update({
      where: { id: ctx.org.id },
      data: { defaultGuestPermissions: { view: true, download: false, upload: true, delete: false } },
    });
    const res = await invite(ctx.token, portal.id, { email: " Jane@Client.IO ", name: " Jane Client " });
    expect(res.status).toBe(201);
    const s = await state(ctx.org.id);
    const userId = s.guests[0]!.userId;
    expect(res.json).toEqual({
      success: true,
      invited_count: 1,
      message: "Invited 1 guest",
      user_id: userId,
      guests: [{ user_id: userId, email: "jane@client.io" }],
    });

    expect(s.guests).toHaveLength(1);
    expect(s.guests[0]).toMatchObject({
      portalId: portal.id,
      invitedById: ctx.user.id,
      acceptedAt: null,
      permissions: { view: true, download: false, upload: true, delete: false },
    });
    expect(s.guests[0]!.user).toMatchObject({ email: "jane@client.io", name: "Jane Client", passwordHash: null });
    expect(s.invitations).toHaveLength(1);
    expect(s.invitations[0]).toMatchObject({ portalId: portal.id, email: "jane@client.io", acceptedAt: null });
    const days = (s.invitations[0]!.expiresAt.getTime() - s.invitations[0]!.createdAt.getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(14);
    expect(s.emails).toHaveLength(1);
    expect(s.emails[0]).toMatchObject({ to: "jane@client.io", template: "invitation", status: "captured", subject: "You are invited to Smith & Co 2025" });
    expect(s.emails[0]!.text).toMatch(/http:\/\/localhost:3000\/invite\/[A-Za-z0-9_-]{43}/);
    expect(s.emails[0]!.html).toContain("Smith &amp; Co 2025");
    expect(s.events.map((e) => [e.portalId, e.data])).toEqual([
      [portal.id, { guest_email: "jane@client.io", guest_name: "Jane Client", invited_by: ctx.user.id, user_id: userId }],
    ]);
    expect(s.audit.map((a) => [a.action, a.actorUserId, a.oauthClientId])).toEqual([["guest.invited", ctx.user.id, ctx.client.id]]);
  });

  it("invites nobody when one address is invalid: 400 naming it, no rows, no emails, no events", async () => {
    const { ctx, portal } = await setup();
    const res = await invite(ctx.token, portal.id, { emails: ["a@x.io", "bad"] });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("invalid_request");
    expect(res.json.error_description).toBe('emails.1: Invalid email address "bad"');
    const s = await state(ctx.org.id);
    expect([s.guests, s.invitations, s.emails, s.events, s.audit]).toEqual([[], [], [], [], []]);
    expect(await db.user.count({ where: { email: "a@x.io", guestOf: { some: { portalId: portal.id } } } })).toBe(0);
  });

  it("counts an address once after trimming and lower-casing", async () => {
    const { ctx, portal } = await setup();
    const res = await invite(ctx.token, portal.id, { emails: ["A@x.io", "a@x.io "], names: ["", "Ann"] });
    expect([res.status, res.json.invited_count, res.json.message]).toEqual([201, 1, "Invited 1 guest"]);
    const s = await state(ctx.org.id);
    expect(s.guests.map((g) => [g.user.email, g.user.name])).toEqual([["a@x.io", "Ann"]]);
    expect(s.emails).toHaveLength(1);
    expect(s.events).toHaveLength(1);
  });

  it("invites several with names paired by position, one event and one email each; email and emails combine", async () => {
    const { ctx, portal } = await setup();
    const res = await invite(ctx.token, portal.id, { email: "first@x.io", name: "First", emails: ["b@x.io", "c@x.io"], names: ["Bee"] });
    expect([res.status, res.json.invited_count, res.json.message]).toEqual([201, 3, "Invited 3 guests"]);
    const s = await state(ctx.org.id);
    const idOf = (email: string) => s.guests.find((g) => g.user.email === email)!.userId;
    expect(res.json.user_id).toBe(idOf("first@x.io"));
    expect(res.json.guests).toEqual(["first@x.io", "b@x.io", "c@x.io"].map((email) => ({ user_id: idOf(email), email })));
    expect(s.events.map((e) => e.data)).toEqual([
      { guest_email: "first@x.io", guest_name: "First", invited_by: ctx.user.id, user_id: idOf("first@x.io") },
      { guest_email: "b@x.io", guest_name: "Bee", invited_by: ctx.user.id, user_id: idOf("b@x.io") },
      { guest_email: "c@x.io", guest_name: null, invited_by: ctx.user.id, user_id: idOf("c@x.io") },
    ]);
    expect(s.emails.map((e) => e.to)).toEqual(["first@x.io", "b@x.io", "c@x.io"]);
  });

  it("accepts 100 addresses and refuses 101", async () => {
    const { ctx, portal } = await setup();
    const many = (n: number) => Array.from({ length: n }, (_, i) => `g${i}@x.io`);
    const refused = await invite(ctx.token, portal.id, { emails: many(101) });
    expect([refused.status, refused.json.error]).toEqual([400, "invalid_request"]);
    expect(refused.json.error_description).toMatch(/^emails: /);
    expect((await state(ctx.org.id)).guests).toEqual([]);
    const ok = await invite(ctx.token, portal.id, { emails: many(100) });
    expect([ok.status, ok.json.invited_count]).toEqual([201, 100]);
  });

  it.each([
    [{}, "email: Required"],
    [{ email: "" }, 'email: Invalid email address ""'],
    [{ emails: [] }, "email: Required"],
    [{ email: 7 }, "email: "],
    [{ emails: ["a@x.io"], names: ["A", "B"] }, "names: More names than emails"],
  ])("refuses %j with 400", async (body, description) => {
    const { ctx, portal } = await setup();
    const res = await invite(ctx.token, portal.id, body);
    expect([res.status, res.json.error]).toEqual([400, "invalid_request"]);
    expect(res.json.error_description!.startsWith(description)).toBe(true);
  });

  it("re-invites: the same guest row and permissions, lastInvitedAt moved, a new invitation and email, guest.invited again", async () => {
    const { ctx, portal } = await setup();
    await invite(ctx.token, portal.id, { email: "again@x.io" });
    const first = await state(ctx.org.id);
    await db.organization.update({
      where: { id: ctx.org.id },
      data: { defaultGuestPermissions: { view: true, download: false, upload: false, delete: false } },
    });
    const res = await invite(ctx.token, portal.id, { emails: ["AGAIN@x.io"] });
    expect([res.status, res.json.invited_count]).toEqual([201, 1]);
    const s = await state(ctx.org.id);
    expect(s.guests.map((g) => g.id)).toEqual([first.guests[0]!.id]);
    expect(s.guests[0]!.permissions).toEqual(first.guests[0]!.permissions);
    expect(s.guests[0]!.lastInvitedAt.getTime()).toBeGreaterThan(first.guests[0]!.lastInvitedAt.getTime());
    expect(s.invitations).toHaveLength(2);
    expect(s.emails.map((e) => e.to)).toEqual(["again@x.io", "again@x.io"]);
    expect(s.emails[0]!.text).not.toBe(s.emails[1]!.text);
    expect(s.events).toHaveLength(2);
    expect(s.audit.map((a) => a.action)).toEqual(["guest.invited", "guest.reinvited"]);
  });

  it("invites an existing user without touching their account", async () => {
    const { ctx, portal } = await setup();
    const existing = await createTestUser({ name: "Known", passwordHash: "hash" });
    const res = await invite(ctx.token, portal.id, { email: existing.email.toUpperCase(), name: "Other name" });
    expect(res.status).toBe(201);
    expect(res.json.user_id).toBe(existing.id);
    expect(await db.user.findUniqueOrThrow({ where: { id: existing.id } })).toMatchObject({ name: "Known", passwordHash: "hash" });
    expect((await state(ctx.org.id)).guests.map((g) => g.userId)).toEqual([existing.id]);
  });

  it("is 404 for another organization's portal, a deleted portal or a malformed id, inviting nobody", async () => {
    const { ctx } = await setup();
    const foreign = await createTestPortal({ orgId: (await createTestOrg()).id });
    const deleted = await createTestPortal({ orgId: ctx.org.id, deletedAt: new Date() });
    for (const id of [foreign.id, deleted.id, "nope"]) {
      const res = await invite(ctx.token, id, { email: "x@x.io" });
      expect([res.status, res.json.error]).toEqual([404, "not_found"]);
    }
    expect(await db.portalGuest.count({ where: { portalId: { in: [foreign.id, deleted.id] } } })).toBe(0);
    expect(await db.event.count({ where: { orgId: ctx.org.id } })).toBe(0);
  });

  it("needs guest:invite (403) and a token (401)", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read", "portal:write"] });
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const res = await invite(ctx.token, portal.id, { email: "x@x.io" });
    expect([res.status, res.json.error]).toEqual([403, "insufficient_scope"]);
    const anonymous = await callRoute<Answer>(POST, {
      path: `/api/v1/portals/${portal.id}/guests`,
      body: { email: "x@x.io" },
      params: { portalId: portal.id },
    });
    expect(anonymous.status).toBe(401);
    expect(await db.portalGuest.count({ where: { portalId: portal.id } })).toBe(0);
  });
});

type Guest = {
  user_id: string;
  email: string;
  name: string | null;
  state: string;
  invited_at: string;
  accepted_at: string | null;
  permissions: Record<string, boolean>;
};

function list(token: string, portalId: string, query = "") {
  return callRoute<Guest[] & { error?: string }>(GET, { path: `/api/v1/portals/${portalId}/guests${query}`, token, params: { portalId } });
}

describe("GET /api/v1/portals/{portalId}/guests", () => {
  it("lists guests in invitation order with user ids, state and permissions", async () => {
    const ctx = await createApiContext({ scopes: ["guest:invite", "portal:read", "task:write"] });
    const portal = await createTestPortal({ orgId: ctx.org.id });
    await db.organization.update({ where: { id: ctx.org.id }, data: { defaultGuestPermissions: { view: true, download: false, upload: true, delete: true } } });
    const first = await invite(ctx.token, portal.id, { email: "zed@x.io", name: "Zed" });
    await invite(ctx.token, portal.id, { email: "amy@x.io" });
    await db.portalGuest.updateMany({ where: { portalId: portal.id, userId: first.json.user_id }, data: { acceptedAt: new Date("2026-01-02T03:04:05Z") } });
    // A re-invitation keeps the guest's place; another portal's guests are not listed.
    await invite(ctx.token, portal.id, { email: "zed@x.io" });
    const other = await createTestPortal({ orgId: ctx.org.id });
    await invite(ctx.token, other.id, { email: "elsewhere@x.io" });

    const res = await list(ctx.token, portal.id);
    expect(res.status).toBe(200);
    const rows = await db.portalGuest.findMany({ where: { portalId: portal.id }, include: { user: true }, orderBy: [{ invitedAt: "asc" }, { id: "asc" }] });
    expect(res.json).toEqual(
      rows.map((g) => ({
        user_id: g.userId,
        email: g.user.email,
        name: g.user.name,
        state: g.acceptedAt ? "accepted" : "invited",
        invited_at: g.invitedAt.toISOString(),
        accepted_at: g.acceptedAt?.toISOString() ?? null,
        permissions: { view: true, download: false, upload: true, delete_own_uploads: true },
      })),
    );
    expect(res.json.map((g) => [g.email, g.state])).toEqual([
      ["zed@x.io", "accepted"],
      ["amy@x.io", "invited"],
    ]);
    expect(res.json[0]!.user_id).toBe(first.json.user_id);
  });

  it("pages with limit and cursor (Link: rel=next), and refuses a bad cursor with 400", async () => {
    const ctx = await createApiContext({ scopes: ["guest:invite", "portal:read"] });
    const portal = await createTestPortal({ orgId: ctx.org.id });
    for (const email of ["a@x.io", "b@x.io", "c@x.io"]) await invite(ctx.token, portal.id, { email });
    const seen: string[] = [];
    let query = "?limit=2";
    for (let page = 0; page < 3 && query; page++) {
      const res = await list(ctx.token, portal.id, query);
      expect(res.status).toBe(200);
      seen.push(...res.json.map((g) => g.email));
      const link = res.headers.get("link");
      query = link ? new URL(/<([^>]+)>/.exec(link)![1]!).search : "";
    }
    expect(seen).toEqual(["a@x.io", "b@x.io", "c@x.io"]);
    const bad = await list(ctx.token, portal.id, "?cursor=nope");
    expect([bad.status, bad.json.error]).toEqual([400, "invalid_request"]);
  });

  it("needs portal:read (403 with guest:invite alone); another organization's portal is 404", async () => {
    const ctx = await createApiContext({ scopes: ["guest:invite"] });
    const portal = await createTestPortal({ orgId: ctx.org.id });
    await invite(ctx.token, portal.id, { email: "a@x.io" });
    const res = await list(ctx.token, portal.id);
    expect([res.status, res.json.error]).toEqual([403, "insufficient_scope"]);
    expect(res.headers.get("www-authenticate")).toContain('scope="portal:read"');

    const reader = await createApiContext({ scopes: ["portal:read"] });
    for (const id of [portal.id, "nope"]) {
      const foreign = await list(reader.token, id);
      expect([foreign.status, foreign.json.error]).toEqual([404, "not_found"]);
    }
  });
});
