import { randomUUID } from "node:crypto";
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { hashPassword } from "@/lib/auth/password";
import { sha256Hex } from "@/lib/crypto";
import { db } from "@/lib/db";
import { SoftAuthenticator } from "@/lib/test-support/soft-authenticator";
import { createTestOrg, createTestUser } from "@/lib/test-support/fixtures";
import {
  CHALLENGE_TTL_MS,
  finishPasskeyRegistration,
  listPasskeys,
  relyingParty,
  removePasskey,
  startPasskeyRegistration,
  startPasskeySignIn,
} from "./passkeys";
import { mustEnrolTwoFactor, setRequireTwoFactor } from "./require-two-factor";
import { confirmTotpEnrolment, startTotpEnrolment } from "./two-factor";
import { attemptPasskeySignIn, attemptPasswordSignIn } from "./verify-credentials";

// Passkeys against the real database and the real @simplewebauthn/server checks, with a software
// authenticator (lib/test-support/soft-authenticator.ts): enrolment, the second factor after the
// password, sign-in with a passkey alone, single-use expiring challenges, the signature counter,
// audit rows, throttling, removal and the organization's two-factor rule.

const PASSWORD = "the-right-password";
const ip = () => `198.19.1.${randomUUID().slice(0, 8)}`;
const authenticator = () => new SoftAuthenticator(relyingParty().rpID, relyingParty().origin);

async function userWithPassword(orgId?: string, role: "admin" | "member" = "member") {
  return createTestUser({ orgId, role, passwordHash: await hashPassword(PASSWORD) });
}

async function enrol(userId: string, device = authenticator(), name = "Work laptop") {
  const options = await startPasskeyRegistration({ userId });
  const passkey = await finishPasskeyRegistration({ userId, name, answer: JSON.stringify(device.register(options)) });
  return { device, passkey };
}

const auditOf = async (orgId: string, userId: string) =>
  (await db.auditLog.findMany({ where: { orgId, targetId: userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((a) => ({
    action: a.action,
    metadata: a.metadata,
  }));

describe("passkeys", () => {
  it("enrols a discoverable passkey with a single-use challenge, and audits it", async () => {
    const org = await createTestOrg();
    const user = await userWithPassword(org.id);
    const options = await startPasskeyRegistration({ userId: user.id });
    expect(options.rp.id).toBe(relyingParty().rpID);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required" });
    expect(await db.webAuthnChallenge.count({ where: { challenge: options.challenge, userId: user.id, purpose: "registration" } })).toBe(1);

    const device = authenticator();
    const answer = device.register(options);
    const added = await finishPasskeyRegistration({ userId: user.id, name: "  Work laptop ", answer });
    expect(added).toMatchObject({ name: "Work laptop", lastUsedAt: null });
    const row = await db.passkey.findUniqueOrThrow({ where: { id: added.id } });
    expect(row).toMatchObject({ userId: user.id, credentialId: device.id, counter: 0n, transports: ["internal"] });
    expect(await db.webAuthnChallenge.count({ where: { challenge: options.challenge } }), "the challenge is used up").toBe(0);

    // The same answer again: its challenge is gone.
    await expect(finishPasskeyRegistration({ userId: user.id, name: "Again", answer })).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringContaining("expired or was used"),
    });
    // The next registration excludes the passkey the user has.
    const next = await startPasskeyRegistration({ userId: user.id });
    expect(next.excludeCredentials?.map((c) => c.id)).toEqual([device.id]);

    expect(await listPasskeys({ userId: user.id })).toEqual([expect.objectContaining({ id: added.id, name: "Work laptop" })]);
    expect(await auditOf(org.id, user.id)).toEqual([{ action: "passkey.added", metadata: { passkeyId: added.id, name: "Work laptop" } }]);
  });

  it("refuses an enrolment with no name, from another origin, after the challenge expired, on another user's challenge, or without a password", async () => {
    const user = await userWithPassword();
    const other = await userWithPassword();

    const named = await startPasskeyRegistration({ userId: user.id });
    await expect(finishPasskeyRegistration({ userId: user.id, name: " ", answer: authenticator().register(named) })).rejects.toMatchObject({
      field: "name",
    });
    await expect(
      finishPasskeyRegistration({ userId: user.id, name: "Bad\u202Ename", answer: authenticator().register(named) }),
      "a spoofing character in the name",
    ).rejects.toMatchObject({ field: "name" });

    const phished = await startPasskeyRegistration({ userId: user.id });
    await expect(
      finishPasskeyRegistration({ userId: user.id, name: "Phone", answer: authenticator().register(phished, { origin: "https://evil.example" }) }),
    ).rejects.toMatchObject({ message: expect.stringContaining("could not be checked") });

    const late = await startPasskeyRegistration({ userId: user.id });
    await expect(
      finishPasskeyRegistration({
        userId: user.id,
        name: "Phone",
        answer: authenticator().register(late),
        now: new Date(Date.now() + CHALLENGE_TTL_MS + 1000),
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining("expired or was used") });

    const theirs = await startPasskeyRegistration({ userId: other.id });
    await expect(finishPasskeyRegistration({ userId: user.id, name: "Phone", answer: authenticator().register(theirs) })).rejects.toMatchObject({
      message: expect.stringContaining("expired or was used"),
    });
    await expect(finishPasskeyRegistration({ userId: user.id, name: "Phone", answer: "not json" })).rejects.toMatchObject({ code: "invalid_request" });

    const linkOnly = await createTestUser();
    await expect(startPasskeyRegistration({ userId: linkOnly.id })).rejects.toMatchObject({ message: expect.stringContaining("Choose a password first") });
    expect(await db.passkey.count({ where: { userId: { in: [user.id, other.id, linkOnly.id] } } })).toBe(0);
  });

  it("is asked for after a right password and signs in once per challenge; the counter and last use are kept", async () => {
    const org = await createTestOrg();
    const user = await userWithPassword(org.id);
    const { device, passkey } = await enrol(user.id);
    const from = ip();

    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD }, { ip: from })).toEqual({ outcome: "second_factor", methods: ["passkey"] });
    // A wrong password: the passkey is not even looked at.
    const unused = device.assert(await startPasskeySignIn({ alone: false }));
    expect(await attemptPasswordSignIn({ email: user.email, password: "nope", passkey: JSON.stringify(unused) }, { ip: from })).toEqual({ outcome: "wrong" });

    const answer = JSON.stringify(device.assert(await startPasskeySignIn({ alone: false })));
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD, passkey: answer }, { ip: from })).toMatchObject({
      outcome: "ok",
      user: { id: user.id },
    });
    const row = await db.passkey.findUniqueOrThrow({ where: { id: passkey.id } });
    expect(row.counter).toBe(BigInt(device.counter));
    expect(row.lastUsedAt).not.toBeNull();

    // The same answer replayed: its challenge was used.
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD, passkey: answer }, { ip: from })).toEqual({
      outcome: "wrong_second_factor",
      methods: ["passkey"],
    });
    // A clone of the authenticator (its counter behind the one stored) is refused.
    device.counter -= 2;
    const cloned = JSON.stringify(device.assert(await startPasskeySignIn({ alone: false })));
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD, passkey: cloned }, { ip: from })).toMatchObject({
      outcome: "wrong_second_factor",
    });
    // An answer signed for another site is refused.
    device.counter += 10;
    const elsewhere = JSON.stringify(device.assert(await startPasskeySignIn({ alone: false }), { origin: "https://evil.example" }));
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD, passkey: elsewhere }, { ip: from })).toMatchObject({
      outcome: "wrong_second_factor",
    });
    // Failures are audited and counted against the account like wrong passwords.
    expect((await auditOf(org.id, user.id)).map((a) => a.action)).toEqual(["passkey.added", "two_factor.failed", "two_factor.failed", "two_factor.failed"]);
    expect((await auditOf(org.id, user.id))[1]!.metadata).toEqual({ method: "passkey" });
    expect(await db.authThrottle.findMany({ where: { key: { endsWith: `:ip:${from}` } }, select: { count: true } })).toEqual([{ count: 4 }]);
  });

  it("offers both factors when the account has a passkey and TOTP; either one signs in", async () => {
    const user = await userWithPassword();
    const { device } = await enrol(user.id);
    const { secret } = await startTotpEnrolment({ userId: user.id, email: user.email });
    const earlier = new Date(Date.now() - 60_000);
    await confirmTotpEnrolment({ userId: user.id, code: await generate({ secret, epoch: Math.floor(earlier.getTime() / 1000) }), now: earlier });
    const from = ip();
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD }, { ip: from })).toEqual({
      outcome: "second_factor",
      methods: ["passkey", "totp"],
    });
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD, code: await generate({ secret }) }, { ip: from })).toMatchObject({
      outcome: "ok",
    });
    const answer = JSON.stringify(device.assert(await startPasskeySignIn({ alone: false })));
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD, passkey: answer }, { ip: from })).toMatchObject({ outcome: "ok" });
  });

  it("does not accept another user's passkey as the second factor", async () => {
    const user = await userWithPassword();
    await enrol(user.id);
    const mallory = await userWithPassword();
    const { device } = await enrol(mallory.id);
    const answer = JSON.stringify(device.assert(await startPasskeySignIn({ alone: false })));
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD, passkey: answer }, { ip: ip() })).toMatchObject({
      outcome: "wrong_second_factor",
    });
    expect(await db.passkey.findFirstOrThrow({ where: { userId: mallory.id } })).toMatchObject({ counter: 0n, lastUsedAt: null });
  });

  it("signs in alone only with user verification; unknown passkeys count against the address, until it is throttled", async () => {
    const user = await userWithPassword();
    const { device } = await enrol(user.id);
    const from = ip();

    expect(await attemptPasskeySignIn({ passkey: JSON.stringify(device.assert(await startPasskeySignIn({ alone: true }))) }, { ip: from })).toMatchObject({
      outcome: "ok",
      user: { id: user.id, email: user.email },
    });
    const otherHandle = device.assert(await startPasskeySignIn({ alone: true }));
    otherHandle.response.userHandle = Buffer.from(randomUUID().replace(/-/g, ""), "hex").toString("base64url");
    expect(await attemptPasskeySignIn({ passkey: JSON.stringify(otherHandle) }, { ip: from }), "naming another account").toEqual({ outcome: "wrong" });
    const unverified = device.assert(await startPasskeySignIn({ alone: true }), { verified: false });
    expect(await attemptPasskeySignIn({ passkey: JSON.stringify(unverified) }, { ip: from }), "presence alone is not enough").toEqual({ outcome: "wrong" });

    const stranger = authenticator();
    await enrol((await userWithPassword()).id, stranger);
    await db.passkey.deleteMany({ where: { credentialId: stranger.id } });
    for (let i = 0; i < 18; i++) {
      expect(await attemptPasskeySignIn({ passkey: JSON.stringify(stranger.assert(await startPasskeySignIn({ alone: true }))) }, { ip: from })).toEqual({
        outcome: "wrong",
      });
    }
    expect(await attemptPasskeySignIn({ passkey: "{}" }, { ip: from })).toEqual({ outcome: "wrong" });
    // 21 failures from the address: past the 20 free ones, the next attempt waits.
    const blocked = await attemptPasskeySignIn({ passkey: JSON.stringify(device.assert(await startPasskeySignIn({ alone: true }))) }, { ip: from });
    expect(blocked).toMatchObject({ outcome: "throttled" });
    // The failure with the user's own passkey counted against the account too; the unknown ones against no account.
    expect(await db.authThrottle.findUnique({ where: { key: `password:account:${sha256Hex(user.email)}` }, select: { count: true } })).toEqual({ count: 2 });
    expect(await db.authThrottle.findUnique({ where: { key: `password:ip:${from}` }, select: { count: true } })).toEqual({ count: 21 });
  });

  it("lets two sign-ins race on one answer: exactly one gets in", async () => {
    const user = await userWithPassword();
    const { device } = await enrol(user.id);
    const answer = JSON.stringify(device.assert(await startPasskeySignIn({ alone: true })));
    const results = await Promise.all([attemptPasskeySignIn({ passkey: answer }, { ip: ip() }), attemptPasskeySignIn({ passkey: answer }, { ip: ip() })]);
    expect(results.map((r) => r.outcome).sort()).toEqual(["ok", "wrong"]);
  });

  it("removes only the user's own passkey (audited); another user's id is not found", async () => {
    const org = await createTestOrg();
    const user = await userWithPassword(org.id);
    const { passkey } = await enrol(user.id);
    const other = await userWithPassword();

    await expect(removePasskey({ userId: other.id, passkeyId: passkey.id })).rejects.toMatchObject({ code: "not_found" });
    await expect(removePasskey({ userId: user.id, passkeyId: "not-a-uuid" })).rejects.toMatchObject({ code: "not_found" });
    expect(await db.passkey.count({ where: { id: passkey.id } })).toBe(1);

    await removePasskey({ userId: user.id, passkeyId: passkey.id });
    expect(await db.passkey.count({ where: { id: passkey.id } })).toBe(0);
    await expect(removePasskey({ userId: user.id, passkeyId: passkey.id })).rejects.toMatchObject({ code: "not_found" });
    expect(await auditOf(org.id, user.id)).toEqual([
      { action: "passkey.added", metadata: { passkeyId: passkey.id, name: "Work laptop" } },
      { action: "passkey.removed", metadata: { passkeyId: passkey.id, name: "Work laptop" } },
    ]);
    // Without a second factor, the password alone signs in again.
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD }, { ip: ip() })).toMatchObject({ outcome: "ok" });
  });

  it("counts as two-factor for an organization that requires it", async () => {
    const org = await createTestOrg();
    const admin = await userWithPassword(org.id, "admin");
    const member = await userWithPassword(org.id);
    const viewer = await getUserViewer(admin.id, org.id);

    await expect(setRequireTwoFactor({ viewer, required: true })).rejects.toMatchObject({ code: "invalid_request" });
    await enrol(admin.id);
    await setRequireTwoFactor({ viewer, required: true });
    expect(await mustEnrolTwoFactor({ orgId: org.id, userId: member.id, role: "member" })).toBe(true);
    await enrol(member.id);
    expect(await mustEnrolTwoFactor({ orgId: org.id, userId: member.id, role: "member" })).toBe(false);
  });
});
