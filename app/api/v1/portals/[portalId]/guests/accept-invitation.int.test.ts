import { InngestTestEngine } from "@inngest/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendEmailFunction } from "@/inngest/functions/send-email";
import { callRoute } from "@/test/routes/call-route";
import { verifyCredentials } from "@/lib/auth/verify-credentials";
import { db } from "@/lib/db";
import { startSmtpSink, textBody, type SmtpSink } from "@/lib/email/test-support/smtp-sink";
import { resetEnvForTests } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { createApiContext, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { POST as inviteRoute } from "@/app/api/v1/portals/[portalId]/guests/route";
import { acceptInvitationAsNewUser, acceptInvitationAsUser } from "@/lib/guests/accept-invitation";
import { findInvitation } from "@/lib/guests/find-invitation";

// The invitation travels through a real SMTP server on loopback; the accept link in the received
// message is then used with the domain functions the /invite/<token> page's server actions call.

let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  process.env.SMTP_URL = sink.url;
  process.env.APP_URL = "https://portals.example";
  resetEnvForTests();
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.APP_URL;
  resetEnvForTests();
  await sink.close();
});

async function errorOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (e) {
    if (isAppError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("expected a refusal");
}

/** Invites through the API, sends the queued emails with the send-email function, returns the links received. */
async function inviteAndReceive(email: string, name?: string) {
  const ctx = await createApiContext({ scopes: ["guest:invite"] });
  const portal = await createTestPortal({ orgId: ctx.org.id, name: "Annual accounts" });
  const before = sink.messages.length;
  const res = await callRoute(inviteRoute, {
    path: `/api/v1/portals/${portal.id}/guests`,
    token: ctx.token,
    body: { email, name },
    params: { portalId: portal.id },
  });
  expect(res.status).toBe(201);
  const queued = await db.event.findMany({ where: { orgId: ctx.org.id, type: "email.queued" } });
  expect(queued).toHaveLength(1);
  expect(sink.messages.length).toBe(before);
  const event = { name: "email.queued", data: { event_id: queued[0]!.id, org_id: ctx.org.id, portal_id: null, ...(queued[0]!.data as { email_id: string }) } };
  expect((await new InngestTestEngine({ function: sendEmailFunction, events: [event] }).execute()).result).toMatchObject({ outcome: "sent" });
  const [mail] = (await sink.waitFor(before + 1)).slice(before);
  expect(mail!.to).toEqual([email.toLowerCase()]);
  const body = textBody(mail!.data);
  const link = /https:\/\/portals\.example\/invite\/([A-Za-z0-9_-]+)/.exec(body);
  expect(link).not.toBeNull();
  return { ctx, portal, token: link![1]!, body };
}

describe("invitation email over SMTP and the accept flow", () => {
  it("a new guest receives the link, creates an account with it, and the link then stops working", async () => {
    const { ctx, portal, token, body } = await inviteAndReceive("new.guest@client.io", "New Guest");
    expect(body).toContain("Annual accounts");

    expect(await findInvitation(token)).toMatchObject({
      status: "valid",
      orgId: ctx.org.id,
      portalId: portal.id,
      email: "new.guest@client.io",
      hasPassword: false,
      userName: "New Guest",
    });
    expect(await errorOf(acceptInvitationAsNewUser({ token, name: "New Guest", password: "short" }))).toMatchObject({ code: "invalid_request" });

    const accepted = await acceptInvitationAsNewUser({ token, name: " Nora Guest ", password: "a-long-password" });
    expect(accepted).toMatchObject({ orgId: ctx.org.id, portalId: portal.id, email: "new.guest@client.io" });
    const user = await db.user.findUniqueOrThrow({ where: { email: "new.guest@client.io" } });
    expect(user).toMatchObject({ name: "Nora Guest", emailVerified: expect.any(Date) });
    expect(await verifyCredentials({ email: "new.guest@client.io", password: "a-long-password" })).toMatchObject({ id: user.id });
    expect((await db.portalGuest.findFirstOrThrow({ where: { portalId: portal.id, userId: user.id } })).acceptedAt).toBeInstanceOf(Date);
    expect((await db.invitation.findFirstOrThrow({ where: { portalId: portal.id } })).acceptedAt).toBeInstanceOf(Date);
    expect((await db.auditLog.findMany({ where: { orgId: ctx.org.id, action: "guest.accepted" } })).map((a) => a.actorUserId)).toEqual([user.id]);

    expect(await errorOf(acceptInvitationAsNewUser({ token, name: "Mallory", password: "another-password" }))).toMatchObject({ code: "invalid_request" });
    expect(await errorOf(acceptInvitationAsUser({ token, userId: user.id }))).toMatchObject({ code: "invalid_request" });
    expect(await findInvitation(token)).toMatchObject({ status: "accepted" });
    expect(await verifyCredentials({ email: "new.guest@client.io", password: "another-password" })).toBeNull();
  });

  it("an existing user with a password must sign in; another signed-in user is refused; the right one accepts", async () => {
    const existing = await createTestUser({ name: "Known", passwordHash: "$2b$11$existinghashexistinghashexistinghashexistinghashexist" });
    const { portal, token } = await inviteAndReceive(existing.email);
    expect(await findInvitation(token)).toMatchObject({ status: "valid", hasPassword: true });
    expect(await errorOf(acceptInvitationAsNewUser({ token, name: "Take over", password: "a-long-password" }))).toMatchObject({ code: "conflict" });
    expect((await db.user.findUniqueOrThrow({ where: { id: existing.id } })).passwordHash).toBe(existing.passwordHash);

    const other = await createTestUser();
    expect(await errorOf(acceptInvitationAsUser({ token, userId: other.id }))).toMatchObject({
      code: "forbidden",
      message: `This invitation is for ${existing.email}`,
    });
    expect(await findInvitation(token)).toMatchObject({ status: "valid" });

    expect(await acceptInvitationAsUser({ token, userId: existing.id })).toMatchObject({ portalId: portal.id });
    expect((await db.portalGuest.findFirstOrThrow({ where: { portalId: portal.id, userId: existing.id } })).acceptedAt).toBeInstanceOf(Date);
  });

  it("refuses an expired link and an unknown one", async () => {
    const { portal, token } = await inviteAndReceive("late@client.io");
    await db.invitation.updateMany({ where: { portalId: portal.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await findInvitation(token)).toMatchObject({ status: "expired" });
    expect(await errorOf(acceptInvitationAsNewUser({ token, name: "Late", password: "a-long-password" }))).toMatchObject({ code: "invalid_request" });
    expect(await findInvitation("not-a-token")).toEqual({ status: "unknown" });
    expect(await errorOf(acceptInvitationAsNewUser({ token: "not-a-token", name: "X", password: "a-long-password" }))).toMatchObject({
      code: "invalid_request",
    });
    expect((await db.user.findUniqueOrThrow({ where: { email: "late@client.io" } })).passwordHash).toBeNull();
  });
});
