import { randomUUID } from "node:crypto";
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/auth/password";
import { decrypt } from "@/lib/crypto";
import { db } from "@/lib/db";
import { createTestOrg, createTestUser } from "@/lib/test-support/fixtures";
import { checkSecondFactor, confirmTotpEnrolment, disableTwoFactor, RECOVERY_CODE_COUNT, startTotpEnrolment } from "./two-factor";
import { attemptPasswordSignIn } from "./verify-credentials";

// TOTP two-factor authentication against the real database: enrolment, sign-in with a code or a
// recovery code (each usable once), the audit rows, and removal.

const PASSWORD = "the-right-password";
const codeAt = (secret: string, at: Date) => generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
const ip = () => `198.19.0.1-${randomUUID().slice(0, 8)}`;

async function enrolledUser() {
  const org = await createTestOrg();
  const user = await createTestUser({ orgId: org.id, passwordHash: await hashPassword(PASSWORD) });
  const { secret, uri } = await startTotpEnrolment({ userId: user.id, email: user.email });
  expect(uri).toMatch(/^otpauth:\/\/totp\/Client%20Portals:.*secret=/);
  const at = new Date(Date.now() - 120_000);
  const codes = await confirmTotpEnrolment({ userId: user.id, code: await codeAt(secret, at), now: at });
  return { org, user, secret, codes };
}

describe("TOTP two-factor", () => {
  it("is turned on only by a right code from the app; the secret is stored encrypted; recovery codes are returned once, hashed at rest", async () => {
    const user = await createTestUser({ passwordHash: await hashPassword(PASSWORD) });
    const { secret } = await startTotpEnrolment({ userId: user.id, email: user.email });
    await expect(confirmTotpEnrolment({ userId: user.id, code: "000000" })).rejects.toMatchObject({ code: "invalid_request" });
    const row = await db.twoFactor.findUniqueOrThrow({ where: { userId: user.id } });
    expect(row.enabledAt).toBeNull();
    expect(row.secretEncrypted).not.toContain(secret);
    expect(decrypt(row.secretEncrypted)).toBe(secret);
    // Still off: a password alone signs in.
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD }, { ip: ip() })).toMatchObject({ outcome: "ok" });

    const codes = await confirmTotpEnrolment({ userId: user.id, code: await codeAt(secret, new Date()) });
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    const stored = await db.recoveryCode.findMany({ where: { userId: user.id } });
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(stored.some((s) => s.codeHash.includes(code))).toBe(false);
  });

  it("asks for the code after a right password, accepts a current code once, and refuses a wrong or replayed one (audited, counted)", async () => {
    const { org, user, secret } = await enrolledUser();
    const from = ip();
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD }, { ip: from })).toEqual({ outcome: "second_factor", methods: ["totp"] });
    // A wrong password with any code is just wrong: the code is not even looked at.
    expect(await attemptPasswordSignIn({ email: user.email, password: "nope", code: "123456" }, { ip: from })).toEqual({ outcome: "wrong" });

    const now = new Date();
    const code = await codeAt(secret, now);
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD, code: "999999" === code ? "999998" : "999999" }, { ip: from, now })).toEqual({
      outcome: "wrong_second_factor",
      methods: ["totp"],
    });
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD, code }, { ip: from, now })).toMatchObject({
      outcome: "ok",
      user: { id: user.id },
    });
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD, code }, { ip: from, now }), "the same code again").toEqual({
      outcome: "wrong_second_factor",
      methods: ["totp"],
    });

    const audit = await db.auditLog.findMany({ where: { orgId: org.id, targetId: user.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["two_factor.enabled", "two_factor.failed", "two_factor.failed"]);
  });

  it("accepts each recovery code once instead of a code", async () => {
    const { org, user, codes } = await enrolledUser();
    const [first, second] = codes;
    expect(await checkSecondFactor({ userId: user.id, code: first!.toUpperCase() })).toBe("recovery_code");
    expect(await checkSecondFactor({ userId: user.id, code: first! })).toBeNull();
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD, code: second! }, { ip: ip() })).toMatchObject({ outcome: "ok" });
    expect(await db.recoveryCode.count({ where: { userId: user.id, usedAt: null } })).toBe(RECOVERY_CODE_COUNT - 2);
    const actions = (await db.auditLog.findMany({ where: { orgId: org.id, targetId: user.id } })).map((a) => a.action).sort();
    expect(actions).toEqual(["two_factor.enabled", "two_factor.failed", "two_factor.recovery_code_used", "two_factor.recovery_code_used"]);
  });

  it("is turned off only with a valid code, which ends the need for one at sign-in", async () => {
    const { org, user, secret } = await enrolledUser();
    await expect(disableTwoFactor({ userId: user.id, code: "000000" })).rejects.toMatchObject({ code: "invalid_request" });
    await disableTwoFactor({ userId: user.id, code: await codeAt(secret, new Date()) });
    expect(await db.twoFactor.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.recoveryCode.count({ where: { userId: user.id } })).toBe(0);
    expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD }, { ip: ip() })).toMatchObject({ outcome: "ok" });
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "two_factor.disabled", targetId: user.id } })).toBe(1);
  });
});
