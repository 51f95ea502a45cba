import { describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/auth/password";
import { sha256Hex } from "@/lib/crypto";
import { db } from "@/lib/db";
import { createTestUser } from "@/lib/test-support/fixtures";
import { verifyCredentials } from "./verify-credentials";
import { checkSessionToken } from "./user-sessions";
import { isPasswordResetUsable, PASSWORD_RESET_PER_HOUR, requestPasswordReset, resetPassword, RESET_LINK_INVALID } from "./password-reset";

// "Forgot password?": the emailed link (hashed at rest, 1 hour, single use), the new password
// (same rules as elsewhere), and the end of every session the user had.

/** Asks for a link and reads it from the captured email, as the user would from their mailbox. */
async function requestLink(email: string): Promise<string> {
  await requestPasswordReset({ email: `  ${email.toUpperCase()} ` });
  const mail = await db.outboundEmail.findFirstOrThrow({ where: { to: email, template: "password-reset" }, orderBy: { createdAt: "desc" } });
  const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  expect(token, "the email holds a reset link").toBeTruthy();
  expect(mail.subject).toBe("Reset your Client Portals password");
  expect(mail.text).toContain("expires in 1 hour");
  return token!;
}

describe("password reset", () => {
  it("stores only the token's hash, expiring in an hour, and sets the new password once", async () => {
    const user = await createTestUser({ passwordHash: await hashPassword("the-old-password") });
    const before = Date.now();
    const token = await requestLink(user.email);
    const rows = await db.passwordResetToken.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(sha256Hex(token));
    expect(rows[0]!.tokenHash).not.toContain(token);
    expect(rows[0]!.expiresAt.getTime() - before).toBeGreaterThanOrEqual(59 * 60_000);
    expect(rows[0]!.expiresAt.getTime() - before).toBeLessThanOrEqual(61 * 60_000);
    expect(await isPasswordResetUsable(token)).toBe(true);

    await expect(resetPassword({ token, password: "short" })).rejects.toMatchObject({
      code: "invalid_request",
      message: "The password needs at least 10 characters",
      field: "password",
    });
    expect(await isPasswordResetUsable(token), "a refused password leaves the link usable").toBe(true);

    expect(await resetPassword({ token, password: "a-brand-new-password" })).toEqual({ userId: user.id, email: user.email });
    expect(await verifyCredentials({ email: user.email, password: "a-brand-new-password" })).toMatchObject({ id: user.id });
    expect(await verifyCredentials({ email: user.email, password: "the-old-password" })).toBeNull();

    expect(await isPasswordResetUsable(token)).toBe(false);
    await expect(resetPassword({ token, password: "yet-another-password" })).rejects.toMatchObject({ code: "invalid_request", message: RESET_LINK_INVALID });
    expect(await verifyCredentials({ email: user.email, password: "a-brand-new-password" })).toMatchObject({ id: user.id });
  });

  it("refuses an expired link and an unknown one, and using one link voids the user's others", async () => {
    const user = await createTestUser({ passwordHash: await hashPassword("the-old-password") });
    const expired = await requestLink(user.email);
    await db.passwordResetToken.update({ where: { tokenHash: sha256Hex(expired) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await isPasswordResetUsable(expired)).toBe(false);
    await expect(resetPassword({ token: expired, password: "a-brand-new-password" })).rejects.toMatchObject({ message: RESET_LINK_INVALID });
    await expect(resetPassword({ token: "not-a-token", password: "a-brand-new-password" })).rejects.toMatchObject({ message: RESET_LINK_INVALID });
    await expect(resetPassword({ token: "", password: "a-brand-new-password" })).rejects.toMatchObject({ message: RESET_LINK_INVALID });
    expect(await verifyCredentials({ email: user.email, password: "the-old-password" })).toMatchObject({ id: user.id });

    const first = await requestLink(user.email);
    const second = await requestLink(user.email);
    await resetPassword({ token: second, password: "a-brand-new-password" });
    expect(await isPasswordResetUsable(first)).toBe(false);
    await expect(resetPassword({ token: first, password: "someone-elses-password" })).rejects.toMatchObject({ message: RESET_LINK_INVALID });
  });

  it("of two concurrent uses of one link exactly one sets the password", async () => {
    const user = await createTestUser();
    const token = await requestLink(user.email);
    const outcomes = await Promise.allSettled([
      resetPassword({ token, password: "first-password-1" }),
      resetPassword({ token, password: "second-password-2" }),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const winner = outcomes[0]!.status === "fulfilled" ? "first-password-1" : "second-password-2";
    expect(await verifyCredentials({ email: user.email, password: winner })).toMatchObject({ id: user.id });
  });

  it("answers alike for an unknown address (no email, no row), refuses a malformed one, and caps links per hour", async () => {
    const unknown = `nobody-${crypto.randomUUID()}@test.example`;
    await expect(requestPasswordReset({ email: unknown })).resolves.toBeUndefined();
    expect(await db.outboundEmail.count({ where: { to: unknown } })).toBe(0);
    await expect(requestPasswordReset({ email: "not an address" })).rejects.toMatchObject({ code: "invalid_request", field: "email" });

    // Requests a minute apart (the throttle's delays are shorter): the hourly cap holds, and the
    // sixth request locks the address's resets (its owner is told).
    const user = await createTestUser();
    const start = Date.now();
    for (let i = 0; i < PASSWORD_RESET_PER_HOUR + 2; i++) await requestPasswordReset({ email: user.email, now: new Date(start + i * 61_000) });
    expect(await db.passwordResetToken.count({ where: { userId: user.id } })).toBe(PASSWORD_RESET_PER_HOUR);
    expect(await db.outboundEmail.count({ where: { to: user.email, template: "password-reset" } })).toBe(PASSWORD_RESET_PER_HOUR);
    expect(await db.outboundEmail.count({ where: { to: user.email, template: "account-locked" } })).toBe(1);
  });

  it("ends the sessions issued before the reset; a sign-in afterwards gets a working one", async () => {
    const user = await createTestUser({ passwordHash: await hashPassword("the-old-password") });
    const before = await checkSessionToken({ sub: undefined as string | undefined }, user.id);
    expect(before).toMatchObject({ sub: user.id, sid: expect.any(String) });
    expect(await checkSessionToken({ ...before! })).toMatchObject({ sub: user.id });

    await resetPassword({ token: await requestLink(user.email), password: "a-brand-new-password" });
    expect(await checkSessionToken({ ...before! }), "a session from before the reset ends").toBeNull();

    const after = await checkSessionToken({ sub: undefined as string | undefined }, user.id);
    expect(await checkSessionToken({ ...after! })).toMatchObject({ sub: user.id });
  });
});
