import { z } from "zod";
import { hashPassword, newPasswordSchema } from "@/lib/auth/password";
import { randomToken, sha256Hex } from "@/lib/crypto";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, invalidRequest } from "@/lib/errors";
import { sendEmail } from "@/lib/email/send-email";
import { passwordResetEmail } from "@/lib/email/templates/password-reset";
import { admitEmailRequest } from "@/lib/auth/throttle";
import { endAllSessions } from "@/lib/auth/user-sessions";

// "Forgot password?": an emailed single-use link (only its SHA-256 is stored) valid for one hour.
// Setting the new password uses the link, voids the user's other links and ends every existing
// session (every UserSession of the user is revoked: lib/auth/user-sessions.ts).

const PASSWORD_RESET_MINUTES = 60;
/** At most this many links per address per hour, so the form cannot be used to flood a mailbox. */
export const PASSWORD_RESET_PER_HOUR = 5;

export const RESET_LINK_INVALID = "This password reset link has expired or was already used";

const emailSchema = z.string().trim().toLowerCase().pipe(z.email());

function passwordResetUrl(token: string): string {
  return `${env().APP_URL}/reset-password/${token}`;
}

/**
 * Emails a reset link when the address has an account. Answers the same whether or not it has
 * one (the caller shows "if that address has an account..."), so the form does not reveal accounts.
 */
export async function requestPasswordReset(input: { email: string; ip?: string; now?: Date }): Promise<void> {
  const parsed = emailSchema.safeParse(input.email);
  if (!parsed.success) throw new AppError("invalid_request", "Enter a valid email address", {}, { field: "email" });
  // Throttled per address and client like sign-in (lib/auth/throttle.ts), unknown addresses alike.
  if (!(await admitEmailRequest({ kind: "password-reset", email: parsed.data, ip: input.ip ?? "" }, input.now))) return;
  const user = await db.user.findUnique({ where: { email: parsed.data }, select: { id: true, email: true } });
  if (!user) return;
  const since = new Date(Date.now() - 60 * 60 * 1000);
  const recent = await db.passwordResetToken.count({ where: { userId: user.id, createdAt: { gt: since } } });
  if (recent >= PASSWORD_RESET_PER_HOUR) return;
  const token = randomToken(32);
  await db.passwordResetToken.create({
    data: { userId: user.id, tokenHash: sha256Hex(token), expiresAt: new Date(Date.now() + PASSWORD_RESET_MINUTES * 60 * 1000) },
  });
  await sendEmail({ to: user.email, template: "password-reset", ...passwordResetEmail({ url: passwordResetUrl(token) }) });
}

/** Whether a reset link can still be used (for the page: a form, or "expired, ask again"). */
export async function isPasswordResetUsable(token: string): Promise<boolean> {
  const row = await db.passwordResetToken.findUnique({ where: { tokenHash: sha256Hex(token) }, select: { usedAt: true, expiresAt: true } });
  return Boolean(row && !row.usedAt && row.expiresAt > new Date());
}

const resetSchema = z.object({ token: z.string().min(1).max(200), password: newPasswordSchema });

/**
 * Sets the new password with a reset link. The link is claimed by a conditional update (of two
 * concurrent uses one wins); returns the account's email so the caller can sign the user in.
 */
export async function resetPassword(input: { token: string; password: string }): Promise<{ userId: string; email: string }> {
  const parsed = resetSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue ? String(issue.path[0]) : undefined;
    if (field === "token") throw invalidRequest(RESET_LINK_INVALID);
    throw new AppError("invalid_request", issue?.message ?? "Invalid input", {}, { field });
  }
  const passwordHash = await hashPassword(parsed.data.password);
  const tokenHash = sha256Hex(parsed.data.token);
  return db.$transaction(async (tx) => {
    const row = await tx.passwordResetToken.findUnique({ where: { tokenHash }, select: { id: true, userId: true } });
    if (!row) throw invalidRequest(RESET_LINK_INVALID);
    const now = new Date();
    const claimed = await tx.passwordResetToken.updateMany({ where: { id: row.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
    if (claimed.count !== 1) throw invalidRequest(RESET_LINK_INVALID);
    // The user's other outstanding links stop working too.
    await tx.passwordResetToken.updateMany({ where: { userId: row.userId, usedAt: null }, data: { usedAt: now } });
    const user = await tx.user.update({
      where: { id: row.userId },
      // Receiving the link proves the address.
      data: { passwordHash, sessionVersion: { increment: 1 }, emailVerified: now },
      select: { id: true, email: true },
    });
    await tx.session.deleteMany({ where: { userId: user.id } });
    await endAllSessions(tx, user.id);
    return { userId: user.id, email: user.email };
  });
}
